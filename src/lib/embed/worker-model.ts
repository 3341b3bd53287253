// Runs inside the embed worker: points transformers.js at this site's files and loads one model.
import { onnxFailureMessage } from './brought-checks.ts';
import {
  AutoModel,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { weightsFile, type ModelDtype, type ModelSpec } from './model-registry.ts';
import type { WebBackend } from './backend-choice.ts';
import type { WasmPaths, WorkerLoadConfig } from './worker-protocol.ts';
import { checkedBytesHealing } from '../offline/checked-assets.ts';
import { embedIds, encodeTexts, modelForward, padIdOf, type TokenIds } from './forward.ts';
import {
  perturbVectors,
  probePassed,
  ProbeRefused,
  worstCosine,
  type ProbeVerdict,
} from './probe-check.ts';
import {
  PROBES,
  probeRows,
  probeSetFor,
  probeVectors,
  selectRows,
  type ProbeSet,
} from './probe-registry.ts';
import { embedInBatches, inInputOrder, type BatchPlan } from './token-batches.ts';
import type { ProgressEvent } from './load-progress.ts';
import { ModelFileGuard, type CacheStore } from './model-fetch.ts';
import { modelBaseUrl, modelFilePins, type CheckedModelFile } from './model-integrity.ts';
import { TEST_HOOKS } from './test-hooks.ts';
import { pickedFetch } from './picked-files.ts';

export interface LoadedModel {
  spec: ModelSpec;
  dtype: ModelDtype;
  backend: WebBackend;
  /** Token ids per text, truncated to the model's `maxTokens` with the closing token kept. */
  encode(texts: readonly string[]): number[][];
  embed(batch: readonly TokenIds[]): Promise<Float32Array>;
  dispose(): Promise<void>;
  /** Every file the load read, checked against data/models.json. */
  files: CheckedModelFile[];
  /** The sha256 of the weights that run: pinned and matched, or computed when unpinned. */
  weightsSha256: string;
}

const HUB_CACHE = 'transformers-cache';

/** The guard for one load: what each of its files must be, and where failures are evicted. */
export function modelGuard(
  config: WorkerLoadConfig,
  origin: string,
  realFetch: typeof fetch,
  cacheStore: CacheStore | null,
  failedUrls: Set<string>,
): ModelFileGuard {
  const { model, location } = config;
  const pins = modelFilePins(model.spec, model.dtype, location);
  const base = modelBaseUrl(location, origin);
  const source =
    location.kind === 'picked' ? pickedFetch(base, location.files, realFetch) : realFetch;
  return new ModelFileGuard(base, pins, source, cacheStore, origin, failedUrls);
}

/** Hub files kept in the Cache API are checked as they are read back, like fresh ones. */
function verifyingHubCache(guard: ModelFileGuard): NonNullable<typeof env.customCache> {
  return {
    match: async (key) => {
      const hit = await caches.match(key, { cacheName: HUB_CACHE });
      return hit && guard.verifying(key, hit);
    },
    put: async (key, response) => (await caches.open(HUB_CACHE)).put(key, response),
  };
}

export function configureTransformers(config: WorkerLoadConfig, guard: ModelFileGuard): void {
  const { location } = config;
  env.allowLocalModels = location.kind !== 'hub';
  env.allowRemoteModels = location.kind === 'hub';
  if (location.kind !== 'hub') env.localModelPath = location.localModelPath;
  env.fetch = guard.fetch;
  // Site files are versioned by the site and the HTTP cache: a Cache API copy could only ever
  // shadow a newer file. Hub downloads are large and pinned by revision, so those are kept,
  // through a cache whose copies are checked again when read.
  env.useBrowserCache = false;
  env.useCustomCache = location.kind === 'hub';
  env.customCache = location.kind === 'hub' ? verifyingHubCache(guard) : null;
  // ORT's files are hashed build assets; the HTTP cache suffices and no blob: copy is needed.
  env.useWasmCache = false;
  const wasm = env.backends.onnx.wasm;
  if (!wasm) throw new Error('onnxruntime-web has no wasm backend settings');
  // Only the binary's path: an `mjs` path would make ORT import its glue from there, unchecked,
  // instead of using the copy inside this worker's bundle. Set, so transformers.js's jsDelivr
  // default never applies.
  wasm.wasmPaths = { wasm: config.wasmPaths.wasm };
  wasm.numThreads = config.numThreads;
  wasm.proxy = false;
}

let ortBinaryFrom: string | null = null;

/**
 * ORT's wasm, fetched and checked against the build's sha256 before ORT compiles a byte of it, then
 * handed over as `wasmBinary` (ORT then fetches nothing). Once per worker: ORT starts once.
 */
export async function provideOrtWasm(paths: WasmPaths, fetchImpl: typeof fetch): Promise<void> {
  if (!paths.sha256 || ortBinaryFrom === paths.wasm) return;
  const wasm = env.backends.onnx.wasm;
  if (!wasm) throw new Error('onnxruntime-web has no wasm backend settings');
  wasm.wasmBinary = await checkedBytesHealing(paths.wasm, paths.sha256, undefined, fetchImpl);
  ortBinaryFrom = paths.wasm;
}

/**
 * Loads the model through `guard`. A file that fails its check is fetched once more, bypassing
 * every cache (a stale or interrupted copy); a second failure is reported, naming the file.
 */
export async function loadModel(
  config: WorkerLoadConfig,
  backend: WebBackend,
  guard: ModelFileGuard,
  onProgress: (event: ProgressEvent) => void = () => undefined,
): Promise<LoadedModel> {
  guard.reset();
  try {
    return await loadOnce(config, backend, guard, onProgress);
  } catch (error) {
    if (!guard.failure) throw error;
    guard.reset();
    try {
      return await loadOnce(config, backend, guard, onProgress);
    } catch (again) {
      throw guard.failure ?? again;
    }
  }
}

async function loadOnce(
  config: WorkerLoadConfig,
  backend: WebBackend,
  guard: ModelFileGuard,
  onProgress: (event: ProgressEvent) => void,
): Promise<LoadedModel> {
  const { location } = config;
  const { spec, dtype } = config.model;
  const options = {
    local_files_only: location.kind !== 'hub',
    revision: location.kind === 'hub' ? location.revision : undefined,
    progress_callback: onProgress,
  };
  const tokenizer: PreTrainedTokenizer = await AutoTokenizer.from_pretrained(
    location.loadId,
    options,
  );
  const weightsPath = weightsFile(spec, dtype).path;
  const named = (err: unknown) => {
    const message = onnxFailureMessage(err, spec.label, weightsPath);
    return message === null ? err : new Error(message);
  };
  const model: PreTrainedModel = await AutoModel.from_pretrained(location.loadId, {
    ...options,
    dtype,
    device: backend,
  }).catch((err: unknown) => {
    throw named(err);
  });
  const weights = guard.checked.get(weightsFile(spec, dtype).path);
  if (!weights) {
    await model.dispose();
    throw new Error(`${weightsFile(spec, dtype).path} was loaded without being checked`);
  }
  const padId = padIdOf(tokenizer);
  const forward = modelForward(model);
  const loaded: LoadedModel = {
    spec,
    dtype,
    backend,
    encode: (texts) => encodeTexts(tokenizer, spec, texts),
    embed: (batch) =>
      embedIds(forward, spec, batch, padId).catch((err: unknown) => {
        throw named(err);
      }),
    dispose: async () => void (await model.dispose()),
    files: [...guard.checked.values()],
    weightsSha256: weights.sha256,
  };
  return loaded;
}

/**
 * `model` with every output moved (test builds' `probePerturb=<backend>`): finite, wrong vectors,
 * as a faulty GPU kernel gives them, for the probe to refuse.
 */
export function perturbedModel(model: LoadedModel): LoadedModel {
  if (!TEST_HOOKS) return model;
  const embed = async (batch: readonly TokenIds[]) =>
    perturbVectors(await model.embed(batch), model.spec.dims);
  return { ...model, embed };
}

export interface ProbeOptions {
  /** Test aid (`webgpuProbe=fail`): throw before embedding. */
  forceFailure: boolean;
  plan: BatchPlan;
  /** The reference file's bytes, checked against its sha256. */
  fetchReference: (set: ProbeSet) => Promise<Uint8Array>;
}

/**
 * The backend proves itself: the probe texts (on WebGPU, the short `webgpu` rows), embedded as any
 * run embeds them, must each agree with the reference vectors made by the reference stack. Without a reference for these weights (a Hub
 * or brought model), one real batch must at least give finite vectors; null then.
 */
export async function probe(model: LoadedModel, opts: ProbeOptions): Promise<ProbeVerdict | null> {
  if (TEST_HOOKS && opts.forceFailure) {
    throw new Error('probe failure forced by the webgpuProbe=fail URL parameter');
  }
  const { spec } = model;
  const set = probeSetFor(spec.id, model.dtype, model.weightsSha256);
  const rows = probeRows(model.backend);
  const texts = set ? rows.map((i) => PROBES.texts[i]) : [PROBES.texts[0]];
  const out = inInputOrder(texts.length, spec.dims);
  await embedInBatches(model.encode(texts), opts.plan, {
    embed: (batch) => model.embed(batch),
    onBatch: out.place,
  });
  if (!set) {
    if (!out.vectors.every(Number.isFinite))
      throw new Error('probe embedding has non-finite values');
    return null;
  }
  const all = probeVectors(
    await opts.fetchReference(set),
    PROBES.texts.length,
    spec.dims,
    set.file,
  );
  const reference = selectRows(all, rows, spec.dims);
  const verdict: ProbeVerdict = {
    texts: texts.length,
    worstCosine: worstCosine(out.vectors, reference, spec.dims),
    threshold: set.threshold,
    reference: set.reference,
  };
  if (!probePassed(verdict)) throw new ProbeRefused(verdict);
  return verdict;
}
