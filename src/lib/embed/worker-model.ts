// Runs inside the embed worker: points transformers.js at this site's files and loads one model.
import {
  AutoModel,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import type { ModelSpec } from './model-registry.ts';
import type { WebBackend } from './backend-choice.ts';
import type { WorkerLoadConfig } from './worker-protocol.ts';
import { embedIds, encodeTexts, padIdOf, type TokenIds } from './forward.ts';
import type { ProgressEvent } from './load-progress.ts';
import { TEST_HOOKS } from './test-hooks.ts';

export interface LoadedModel {
  spec: ModelSpec;
  backend: WebBackend;
  /** Token ids per text, truncated to the model's `maxTokens` with the closing token kept. */
  encode(texts: readonly string[]): number[][];
  embed(batch: readonly TokenIds[]): Promise<Float32Array>;
  dispose(): Promise<void>;
}

export function configureTransformers(config: WorkerLoadConfig): void {
  const { location } = config;
  env.allowLocalModels = location.kind === 'site';
  env.allowRemoteModels = location.kind === 'hub';
  if (location.kind === 'site') env.localModelPath = location.localModelPath;
  // Site files are versioned by the site and the HTTP cache: a Cache API copy could only ever
  // shadow a newer file. Hub downloads are large and pinned by revision, so those are kept.
  env.useBrowserCache = location.kind === 'hub';
  // ORT's files are hashed build assets; the HTTP cache suffices and no blob: copy is needed.
  env.useWasmCache = false;
  const wasm = env.backends.onnx.wasm;
  if (!wasm) throw new Error('onnxruntime-web has no wasm backend settings');
  wasm.wasmPaths = { ...config.wasmPaths };
  wasm.numThreads = config.numThreads;
  wasm.proxy = false;
}

export async function loadModel(
  config: WorkerLoadConfig,
  backend: WebBackend,
  onProgress: (event: ProgressEvent) => void = () => undefined,
) {
  const { spec, dtype, location } = config;
  const options = {
    local_files_only: location.kind === 'site',
    revision: location.kind === 'hub' ? location.revision : undefined,
    progress_callback: onProgress,
  };
  const tokenizer: PreTrainedTokenizer = await AutoTokenizer.from_pretrained(
    location.loadId,
    options,
  );
  const model: PreTrainedModel = await AutoModel.from_pretrained(location.loadId, {
    ...options,
    dtype,
    device: backend,
  });
  const padId = padIdOf(tokenizer);
  const loaded: LoadedModel = {
    spec,
    backend,
    encode: (texts) => encodeTexts(tokenizer, spec, texts),
    embed: (batch) => embedIds(model, spec, batch, padId),
    dispose: async () => void (await model.dispose()),
  };
  return loaded;
}

/** One real batch: a backend that loads but cannot run the graph fails here, not mid-run. */
export async function probe(model: LoadedModel, forceFailure: boolean): Promise<void> {
  if (TEST_HOOKS && forceFailure) {
    throw new Error('probe failure forced by the webgpuProbe=fail URL parameter');
  }
  const ids = model.encode(['MemLens WebGPU probe: does this backend run the model?']);
  const vector = await model.embed(ids);
  if (!vector.every(Number.isFinite)) throw new Error('probe embedding has non-finite values');
}
