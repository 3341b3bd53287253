// What the page and src/workers/embed-worker.ts exchange: the load settings, what a load reports,
// and the worker's method map.
import type { ModelRef } from './model-ref.ts';
import type { ModelLocation } from './model-location.ts';
import type { WebBackend } from './backend-choice.ts';
import type { AdapterReport } from './webgpu.ts';
import type { LoadProgress } from './load-progress.ts';
import type { CheckedModelFile } from './model-integrity.ts';
import type { BatchPlan } from './token-batches.ts';
import type { ProbeVerdict } from './probe-check.ts';

/**
 * ORT's wasm binary as this site serves it (absolute URL) and the build's sha256 of it (null under
 * the dev server). Its glue is part of the worker's own checked bundle, so no `.mjs` is fetched.
 */
export interface WasmPaths {
  wasm: string;
  sha256: string | null;
}

export interface WorkerLoadConfig {
  /** The page's reference, cloned unchanged: the model, its dtype and the device asked for. */
  model: ModelRef;
  location: ModelLocation;
  /** The page's base URL: the worker runs from a blob: URL, which relative paths cannot resolve against. */
  siteBase: string;
  wasmPaths: WasmPaths;
  numThreads: number;
  batchPlan: BatchPlan;
  /** Test aid: make the WebGPU probe throw, to exercise the fallback. */
  failWebgpuProbe: boolean;
  /** Test aid (`probePerturb=<backend>`): that backend's vectors are moved, for its probe to refuse. */
  perturbProbe: WebBackend | null;
}

export interface LoadInfo {
  backend: WebBackend;
  fallbackReason: string | null;
  /** WebGPU on a software adapter (forced): what emulates it; null otherwise. */
  emulated: string | null;
  adapter: AdapterReport | null;
  threads: number;
  loadMs: number;
  /** Every model file read, with its sha256 and whether data/models.json pinned it. */
  files: CheckedModelFile[];
  /** The sha256 of the weights that run: the vector cache keys on it. */
  weightsSha256: string;
  /** The check the backend passed against reference vectors; null when none exists for these weights. */
  probe: ProbeVerdict | null;
}

/** One finished batch: rows `indices` of the texts sent, `vectors` row-major (its buffer moves). */
export interface EmbeddedBatch {
  indices: number[];
  vectors: Float32Array;
}

/**
 * The embed worker's methods (lib/common/worker-rpc.ts carries them). Calls run one after another;
 * a run's batches arrive as its progress, so the page stores each before the next one ends.
 */
export interface EmbedMethods {
  load: { params: { config: WorkerLoadConfig }; result: LoadInfo; progress: LoadProgress };
  embed: { params: { texts: string[] }; result: null; progress: EmbeddedBatch };
}
