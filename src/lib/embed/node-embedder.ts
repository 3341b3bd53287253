// Node-only embedder: transformers.js's tokenizer, the graph on the runtime node-runtime.ts picks
// for the dtype (onnxruntime-node for fp32, onnxruntime-web's WASM otherwise, as the page).
// Never import this from browser code.
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoModel, AutoTokenizer, env } from '@huggingface/transformers';
import {
  acceptedDigests,
  filesForDtype,
  localModelRoot,
  modelLoadId,
  weightsFile,
  type ModelDtype,
  type ModelSpec,
  type TextKind,
} from './model-registry.ts';
import type { ModelRef } from './model-ref.ts';
import { batchPlanFor, embedInBatches, inInputOrder } from './token-batches.ts';
import { embedIds, encodeTexts, modelForward, padIdOf, type ForwardPass } from './forward.ts';
import { nodeRuntime, type NodeRuntime } from './node-runtime.ts';
import { openWasmSession } from './node-wasm-session.ts';
import { prepareTexts } from './text-prep.ts';
import { sha256Hex } from '../common/sha256.ts';

export interface NodeEmbedderOptions {
  /** The model and its dtype; source `hub` lets transformers.js fetch the pinned commit. */
  model: ModelRef;
  /** Directory holding `<loadId>/…` (hub models: `<root>/<owner>/<name>/…`). Local models default to their registry path. */
  modelRoot?: string;
  /** Texts per forward pass at most (default the dtype's, token-batches.ts). */
  maxBatch?: number;
  /** Padded tokens per forward pass at most; 0: none (default the dtype's). */
  tokenBudget?: number;
}

export interface Embeddings {
  dim: number;
  /** Row-major `[texts.length, dim]`. */
  vectors: Float32Array;
}

export interface NodeEmbedder {
  model: ModelRef;
  spec: ModelSpec;
  /** What runs the graph, printed and recorded with every number it gives. */
  runtime: NodeRuntime;
  embed(texts: readonly string[], options: { kind: TextKind }): Promise<Embeddings>;
  dispose(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Fails with the names of missing or altered files before transformers.js gets a chance to. */
export async function checkModelFiles(spec: ModelSpec, modelDir: string, dtype: ModelDtype) {
  const missing: string[] = [];
  const altered: string[] = [];
  for (const file of filesForDtype(spec, dtype)) {
    const bytes = await readIfPresent(join(modelDir, file.path));
    if (!bytes) missing.push(file.path);
    else if (file.sha256 && !acceptedDigests(file).includes(await sha256Hex(bytes))) {
      altered.push(file.path);
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `Model "${spec.id}" is missing ${missing.join(', ')} in ${modelDir}: \`npm run models\` fetches it` +
        (spec.source.kind === 'hub' ? ' (from the Hugging Face Hub, which must be reachable)' : ''),
    );
  }
  if (altered.length > 0) {
    throw new Error(
      `Model "${spec.id}" has unexpected sha256 for ${altered.join(', ')} in ${modelDir}`,
    );
  }
}

function resolveModelRoot(spec: ModelSpec, modelRoot: string | undefined): string {
  // A folder the reader brought is found by its own absolute path, never under a model root.
  const own = spec.source.kind === 'local' && isAbsolute(spec.source.path);
  return resolve((own ? undefined : modelRoot) ?? resolve(REPO_ROOT, localModelRoot(spec)));
}

function configureEnv(modelRoot: string, allowRemote: boolean): void {
  env.allowLocalModels = true;
  env.allowRemoteModels = allowRemote;
  // A trailing slash is harmless (transformers.js joins with '/') and keeps it a directory.
  env.localModelPath = `${modelRoot}/`;
  // The file cache is consulted before local files: a stale entry could shadow the model dir.
  env.useFSCache = allowRemote;
}

// transformers.js keeps its settings in one global `env` and dedupes in-flight file loads by
// model id, so loads with different roots must not interleave.
let loadQueue: Promise<unknown> = Promise.resolve();

function withLoadLock<T>(load: () => Promise<T>): Promise<T> {
  const result = loadQueue.then(load);
  loadQueue = result.catch(() => undefined);
  return result;
}

interface LoadedGraph {
  forward: ForwardPass;
  dispose(): Promise<void>;
}

/** The graph on onnxruntime-node, through transformers.js (which picks it in Node). */
async function nativeGraph(
  loadId: string,
  loadOptions: { local_files_only: boolean; revision: string | undefined },
  dtype: ModelDtype,
): Promise<LoadedGraph> {
  const model = await AutoModel.from_pretrained(loadId, { ...loadOptions, dtype, device: 'cpu' });
  return { forward: modelForward(model), dispose: async () => void (await model.dispose()) };
}

/** The graph on onnxruntime-web's WASM, read from the checked copy transformers.js would read. */
async function wasmGraph(spec: ModelSpec, modelDir: string, dtype: ModelDtype) {
  const session = await openWasmSession(
    await readFile(join(modelDir, weightsFile(spec, dtype).path)),
  );
  return { forward: session.forward, dispose: session.release };
}

export async function createNodeEmbedder(options: NodeEmbedderOptions): Promise<NodeEmbedder> {
  const { model: ref } = options;
  const { spec, dtype } = ref;
  const runtime = nodeRuntime(dtype);
  // Off unless the reference says so: MemLens never downloads weights behind the caller's back.
  const allowRemote = ref.source === 'hub';
  if (allowRemote && runtime !== 'onnxruntime-node cpu') {
    throw new Error(
      `Model "${spec.id}" ${dtype} runs on ${runtime} from the machine's copy: \`npm run models\` fetches it`,
    );
  }
  const root = resolveModelRoot(spec, options.modelRoot);
  const loadId = allowRemote && spec.hub ? spec.hub.repo : modelLoadId(spec);
  if (!allowRemote) await checkModelFiles(spec, join(root, loadId), dtype);

  const { tokenizer, graph } = await withLoadLock(async () => {
    configureEnv(root, allowRemote);
    const loadOptions = {
      local_files_only: !allowRemote,
      revision: allowRemote ? spec.hub?.revision : undefined,
    };
    return {
      tokenizer: await AutoTokenizer.from_pretrained(loadId, loadOptions),
      graph:
        runtime === 'onnxruntime-node cpu'
          ? await nativeGraph(loadId, loadOptions, dtype)
          : await wasmGraph(spec, join(root, loadId), dtype),
    };
  });
  const plan = {
    maxBatch: options.maxBatch ?? batchPlanFor(dtype).maxBatch,
    tokenBudget: options.tokenBudget ?? batchPlanFor(dtype).tokenBudget,
  };
  const padId = padIdOf(tokenizer);

  async function embed(
    texts: readonly string[],
    { kind }: { kind: TextKind },
  ): Promise<Embeddings> {
    const prepared = prepareTexts(spec, texts, kind);
    const out = inInputOrder(prepared.length, spec.dims);
    if (prepared.length === 0) return { dim: spec.dims, vectors: out.vectors };
    await embedInBatches(encodeTexts(tokenizer, spec, prepared), plan, {
      embed: (batch) => embedIds(graph.forward, spec, batch, padId),
      onBatch: out.place,
    });
    return { dim: spec.dims, vectors: out.vectors };
  }

  return { model: ref, spec, runtime, embed, dispose: graph.dispose };
}
