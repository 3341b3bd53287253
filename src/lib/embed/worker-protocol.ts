// Messages between the page and src/workers/embed-worker.ts. Every request carries an id; the
// worker answers in order, and `cancel` is the one message it acts on before earlier ones end.
import type { ModelDtype, ModelSpec } from './model-registry.ts';
import type { ModelLocation } from './model-location.ts';
import type { DeviceChoice, WebBackend } from './backend-choice.ts';
import type { AdapterReport } from './webgpu.ts';
import type { LoadProgress } from './load-progress.ts';
import type { CheckedModelFile } from './model-integrity.ts';
import type { BatchPlan } from './token-batches.ts';

/**
 * ORT's wasm binary as this site serves it (absolute URL) and the build's sha256 of it (null under
 * the dev server). Its glue is part of the worker's own checked bundle, so no `.mjs` is fetched.
 */
export interface WasmPaths {
  wasm: string;
  sha256: string | null;
}

export interface WorkerLoadConfig {
  spec: ModelSpec;
  dtype: ModelDtype;
  device: DeviceChoice;
  location: ModelLocation;
  /** The page's base URL: the worker runs from a blob: URL, which relative paths cannot resolve against. */
  siteBase: string;
  wasmPaths: WasmPaths;
  numThreads: number;
  batchPlan: BatchPlan;
  /** Test aid: make the WebGPU probe throw, to exercise the fallback. */
  failWebgpuProbe: boolean;
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
}

export type ToWorker =
  | { type: 'load'; id: number; config: WorkerLoadConfig }
  | { type: 'embed'; id: number; texts: string[] }
  | { type: 'cancel'; id: number }
  /** Hold this Web Lock for the worker's lifetime: the page learns of its end when it is freed. */
  | { type: 'hold'; id: number; lock: string };

export type FromWorker =
  | { type: 'loaded'; id: number; info: LoadInfo }
  | { type: 'load-progress'; id: number; progress: LoadProgress }
  | { type: 'batch'; id: number; indices: number[]; vectors: Float32Array }
  | { type: 'embedded'; id: number }
  | { type: 'cancelled'; id: number }
  | { type: 'held'; id: number }
  | { type: 'error'; id: number; message: string };
