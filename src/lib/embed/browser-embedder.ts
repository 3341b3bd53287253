// The page's embedder: transformers.js runs in a worker; this class keeps the vector cache,
// batches the misses through the worker and reports progress. A cancelled run throws and keeps
// nothing but the batches the cache had already stored whole.
import type { WebBackend } from './backend-choice.ts';
import type { EmbedBackend, Embedder, EmbeddingMatrix, EmbedOptions } from './embedder.ts';
import type { ModelSpec } from './model-registry.ts';
import { browserDevice, type ModelRef } from './model-ref.ts';
import { prepareTexts } from './text-prep.ts';
import { ProgressMeter, type RunProgress } from './progress.ts';
import { loadedKeyScope, vectorKeys } from './vector-cache-key.ts';
import type { VectorStore } from './vector-cache.ts';
import { locateModel, siteModelsUrl, type ModelLocation } from './model-location.ts';
import { pickedLoadId, pickedModel } from './picked-files.ts';
import { wasmThreadCount } from './wasm-threads.ts';
import {
  RpcClient,
  STEP_STALL_MS,
  type RpcClientOptions,
  type RpcWorker,
} from '../common/worker-rpc.ts';
import { timeoutMs } from './test-hooks.ts';
import { storageMessage } from '../common/storage-error.ts';
import type { EmbeddedBatch, EmbedMethods, LoadInfo, WasmPaths } from './worker-protocol.ts';
import type { LoadProgress } from './load-progress.ts';
import { batchPlanFor } from './token-batches.ts';
import type { VectorShape } from './vector-check.ts';

/** The vector checks, loaded with the first run: the page's first load does not carry them. */
type VectorChecks = typeof import('./vector-check.ts');

export interface BrowserLoadOptions {
  failWebgpuProbe?: boolean;
  perturbProbe?: WebBackend | null;
  /** Bytes of the model files as they arrive (site or Hub). */
  onProgress?: (progress: LoadProgress) => void;
}

export interface LoadReport extends LoadInfo {
  /** The reference loaded, as the caller passed it. */
  model: ModelRef;
  /** Where the weights came from (a `hub` reference still prefers the site's copy). */
  source: ModelLocation['kind'];
}

/** EmbedOptions whose progress also counts model work (the interface accepts these options). */
export interface BrowserEmbedOptions extends Omit<EmbedOptions, 'onProgress'> {
  onProgress?: (progress: RunProgress) => void;
  /** The vector cache failed (storage full, say): the run goes on, its vectors kept in memory only. */
  onCacheError?: (message: string) => void;
}

/** Stored vectors that failed their check (vector-check.ts) were dropped and are computed again. */
export type OnCacheDropped = (message: string) => void;

export interface BrowserEmbedderOptions {
  siteBase?: string;
  /** Null: every run goes to the model (benchmarks, parity checks). */
  cache?: VectorStore | null;
  /** Texts and padded tokens per forward pass; default the dtype's (token-batches.ts). */
  maxBatch?: number;
  tokenBudget?: number;
  /** The embedding worker (src/browser/workers.ts in the page: its script checked first). */
  createWorker: () => RpcWorker | Promise<RpcWorker>;
  /** Where ORT's wasm is served and its digest (src/browser/ort-assets.ts in the page). */
  wasmPaths: (siteBase: string) => WasmPaths | Promise<WasmPaths>;
  fetchImpl?: typeof fetch;
  /** Told whenever stored vectors fail their check and are computed again (the hub's note). */
  onCacheDropped?: OnCacheDropped;
}

function abortError(): DOMException {
  return new DOMException('Embedding was cancelled', 'AbortError');
}

const EMBED_RPC: RpcClientOptions = {
  name: 'embedding worker',
  cancelled: abortError,
  stallMs: timeoutMs('worker-step', STEP_STALL_MS),
};

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError();
}

interface Loaded {
  model: ModelRef;
  report: LoadReport;
}

/** The distinct texts a run has to compute, and the rows each one fills. */
interface Misses {
  keys: string[];
  texts: string[];
  rows: number[][];
}

export class BrowserEmbedder implements Embedder {
  private rpc: RpcClient<EmbedMethods> | null = null;
  private loaded: Loaded | null = null;
  private run: AbortController | null = null;
  private lastLoad: { model: ModelRef; opts: BrowserLoadOptions } | null = null;

  constructor(private readonly options: BrowserEmbedderOptions) {}

  get spec(): ModelSpec {
    return this.requireLoaded().model.spec;
  }

  get backend(): EmbedBackend {
    return this.requireLoaded().report.backend;
  }

  get report(): LoadReport | null {
    return this.loaded?.report ?? null;
  }

  get busy(): boolean {
    return this.run !== null;
  }

  private requireLoaded(): Loaded {
    if (!this.loaded) throw new Error('No model loaded: call load() first');
    return this.loaded;
  }

  private get siteBase(): string {
    return this.options.siteBase ?? document.baseURI;
  }

  async load(model: ModelRef, opts: BrowserLoadOptions = {}): Promise<LoadReport> {
    this.cancel();
    this.loaded = null;
    browserDevice(model);
    const picked = pickedModel(model.id);
    const location: ModelLocation = picked
      ? {
          kind: 'picked',
          loadId: pickedLoadId(picked),
          localModelPath: siteModelsUrl(this.siteBase).pathname,
          where: picked.id,
          files: picked.files,
        }
      : await locateModel(model.spec, model.dtype, {
          siteBase: this.siteBase,
          allowRemote: model.source === 'hub',
          fetchImpl: this.options.fetchImpl,
          offline: typeof navigator !== 'undefined' && navigator.onLine === false,
        });
    const wasmPaths = await this.options.wasmPaths(this.siteBase);
    if (!this.rpc || this.rpc.stopped) {
      this.rpc = new RpcClient<EmbedMethods>(await this.options.createWorker(), EMBED_RPC);
    }
    this.lastLoad = { model, opts };
    const config = {
      model,
      location,
      siteBase: this.siteBase,
      wasmPaths,
      numThreads: wasmThreadCount(),
      batchPlan: {
        maxBatch: this.options.maxBatch ?? batchPlanFor(model.dtype).maxBatch,
        tokenBudget: this.options.tokenBudget ?? batchPlanFor(model.dtype).tokenBudget,
      },
      failWebgpuProbe: opts.failWebgpuProbe ?? false,
      perturbProbe: opts.perturbProbe ?? null,
    };
    const info: LoadInfo = await this.rpc.call('load', { config }, { onProgress: opts.onProgress });
    const report: LoadReport = { ...info, model, source: location.kind };
    this.loaded = { model, report };
    return report;
  }

  async embed(texts: readonly string[], opts: BrowserEmbedOptions): Promise<EmbeddingMatrix> {
    if (this.run) throw new Error('An embedding run is already in progress');
    // A worker that died since (closed, crashed, errored) is replaced and the model loaded again.
    if (this.rpc?.stopped && this.lastLoad) {
      const { model, opts: loadOpts } = this.lastLoad;
      await this.load(model, loadOpts);
    }
    const loaded = this.requireLoaded();
    const controller = new AbortController();
    this.run = controller;
    const signal = opts.signal
      ? AbortSignal.any([controller.signal, opts.signal])
      : controller.signal;
    try {
      return await this.embedRun(loaded, texts, opts, signal);
    } finally {
      this.run = null;
    }
  }

  /** Stops the current run; it rejects with an AbortError once in-flight cache writes settle. */
  cancel(): void {
    this.run?.abort();
  }

  async dispose(): Promise<void> {
    this.cancel();
    this.rpc?.terminate();
    this.rpc = null;
    this.loaded = null;
  }

  private async embedRun(
    { model, report }: Loaded,
    texts: readonly string[],
    opts: BrowserEmbedOptions,
    signal: AbortSignal,
  ): Promise<EmbeddingMatrix> {
    throwIfAborted(signal);
    const dim = model.spec.dims;
    const prepared = prepareTexts(model.spec, texts, opts.kind);
    const scope = loadedKeyScope(model, opts.kind, report.weightsSha256);
    const keys = await vectorKeys(scope, texts);
    const cache = this.options.cache ?? null;
    const hits = cache
      ? await cache.getMany(keys).catch((err: unknown) => {
          opts.onCacheError?.(storageMessage(err, 'the vector cache (read)'));
          return [];
        })
      : [];
    throwIfAborted(signal);
    const shape: VectorShape = { dim, normalize: model.spec.normalize };
    const checks: VectorChecks = await import('./vector-check.ts');
    const label = `${model.spec.label} ${model.dtype}`;
    const dropped = checks.droppedRows(hits, shape, label, this.options.onCacheDropped);

    const vectors = new Float32Array(texts.length * dim);
    const byKey = new Map<string, number[]>();
    let cached = 0;
    keys.forEach((key, row) => {
      const hit = hits[row];
      if (hit && !dropped?.has(row)) {
        vectors.set(hit, row * dim);
        cached++;
      } else {
        const rows = byKey.get(key);
        if (rows) rows.push(row);
        else byKey.set(key, [row]);
      }
    });
    const misses: Misses = {
      keys: [...byKey.keys()],
      texts: [...byKey.values()].map((rows) => prepared[rows[0]]),
      rows: [...byKey.values()],
    };
    const meter = new ProgressMeter(texts.length, cached, misses.keys.length);
    opts.onProgress?.(meter.snapshot());
    if (misses.keys.length > 0) {
      await this.compute(misses, { shape, checks, model: label }, vectors, meter, signal, opts);
    }
    return { dim, count: texts.length, vectors };
  }

  private compute(
    misses: Misses,
    { shape, checks, model }: { shape: VectorShape; checks: VectorChecks; model: string },
    vectors: Float32Array,
    meter: ProgressMeter,
    signal: AbortSignal,
    { onProgress, onCacheError }: BrowserEmbedOptions,
  ): Promise<void> {
    const rpc = this.rpc;
    if (!rpc) return Promise.reject(new Error('embedding worker is not running'));
    const { dim } = shape;
    let cache = this.options.cache ?? null;
    // Batches are stored strictly in order; one not yet started when the run is cancelled
    // is dropped, one already being written completes (whole) and is counted.
    let commits: Promise<void> = Promise.resolve();
    let failure: unknown = null;
    // A failure here (a bad batch, a store that threw) cancels the worker's run too.
    const failed = new AbortController();
    const stop = (error: unknown) => {
      failure ??= error;
      failed.abort();
    };

    const commit = async (indices: number[], batch: Float32Array) => {
      if (signal.aborted || failure) return;
      const entries = indices.map((index, r) => ({
        key: misses.keys[index],
        vector: batch.slice(r * dim, (r + 1) * dim),
      }));
      if (cache) {
        // The cache is optional: once a write fails the run goes on without it.
        await cache.putMany(entries).catch((err: unknown) => {
          cache = null;
          onCacheError?.(storageMessage(err, 'embedding vectors'));
        });
      }
      let rows = 0;
      entries.forEach(({ vector }, r) => {
        for (const row of misses.rows[indices[r]]) {
          vectors.set(vector, row * dim);
          rows++;
        }
      });
      onProgress?.(meter.commit(entries.length, rows));
    };

    const onBatch = ({ indices, vectors: batch }: EmbeddedBatch) => {
      if (batch.length !== indices.length * dim) {
        stop(new Error('the worker returned a batch of the wrong size'));
        return;
      }
      const bad = checks.batchError(batch, indices, shape, { ...misses, model });
      if (bad) {
        stop(bad);
        return;
      }
      commits = commits.then(() => commit(indices, batch)).catch(stop);
    };

    const finish = async (error: unknown) => {
      await commits;
      const cause = failure ?? error;
      if (cause) throw cause;
    };

    return rpc
      .call(
        'embed',
        { texts: misses.texts },
        { signal: AbortSignal.any([signal, failed.signal]), onProgress: onBatch },
      )
      .then(
        () => finish(null),
        (error: unknown) => finish(error),
      );
  }
}
