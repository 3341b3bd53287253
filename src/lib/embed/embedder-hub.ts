// The one place that makes embedders: one per model, device, dtype and load choice, loaded once
// and kept (the least recently used idle ones beyond `keep` are disposed). It owns the vector
// cache (IndexedDB, shared by every embedder it makes), each embedder's unit vectors in memory,
// and the run queue every embedding goes through. Reproduce, Playground and Embeddings share it.
import { backendLabel, type WebBackend } from './backend-choice.ts';
import type { BrowserEmbedOptions, LoadReport } from './browser-embedder.ts';
import type { EmbedBackend, Embedder, EmbeddingMatrix } from './embedder.ts';
import { errorMessage } from '../common/error-message.ts';
import { createStore, type Store } from '../common/store.ts';
import type { LoadProgress } from './load-progress.ts';
import type { ModelSpec } from './model-registry.ts';
import { formatModelRef, type ModelRef } from './model-ref.ts';
import { RunQueue } from './run-queue.ts';
import { UnitVectors } from './unit-vectors.ts';
import type { OwnedVectorStore, VectorStore } from './vector-cache.ts';

export interface EmbedderRequest {
  /** The model, its weights, backend and source, exactly as the caller parsed them. */
  model: ModelRef;
  failWebgpuProbe?: boolean;
  perturbProbe?: WebBackend | null;
  /** Texts per ONNX batch (benchmarks measure several); default the embedder's own. */
  maxBatch?: number;
  /** Padded tokens per ONNX batch (0: none); default the embedder's own. */
  tokenBudget?: number;
}

/** What the hub's `create` returns: an embedder whose model is loaded. */
export interface LoadedEmbedder extends Embedder {
  /** What ran and where from; null where nothing reports it (the CLI's Node embedders). */
  readonly report: LoadReport | null;
  embed(texts: readonly string[], opts: BrowserEmbedOptions): Promise<EmbeddingMatrix>;
}

export type CreateEmbedder = (
  request: EmbedderRequest,
  store: VectorStore | null,
  onLoad?: (progress: LoadProgress) => void,
) => Promise<LoadedEmbedder>;

export interface EmbedderHubOptions {
  create: CreateEmbedder;
  /** Null: no persistent cache (the CLI). */
  openStore?: (() => Promise<OwnedVectorStore>) | null;
  /** Loaded embedders kept when idle; default 4. */
  keep?: number;
}

/** One embedder the hub keeps, with its unit vectors; `embed` waits its turn in the hub's queue. */
export interface HubEmbedder extends LoadedEmbedder {
  readonly vectors: UnitVectors;
}

interface Entry {
  key: string;
  request: EmbedderRequest;
  loaded: Promise<LoadedEmbedder>;
  vectors: UnitVectors;
  /** Runs of this embedder queued or running. */
  runs: number;
  disposed: boolean;
}

/** Equal for requests that load the same thing. */
export function requestKey(request: EmbedderRequest): string {
  return JSON.stringify([
    formatModelRef(request.model),
    !!request.failWebgpuProbe,
    request.perturbProbe ?? null,
  ]);
}

type RunOn = <T>(
  task: (embedder: LoadedEmbedder) => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

class QueuedEmbedder implements HubEmbedder {
  readonly spec: ModelSpec;
  readonly backend: EmbedBackend;
  readonly report: LoadReport | null;

  constructor(
    readonly vectors: UnitVectors,
    loaded: LoadedEmbedder,
    private readonly run: RunOn,
  ) {
    this.spec = loaded.spec;
    this.backend = loaded.backend;
    this.report = loaded.report;
  }

  embed(texts: readonly string[], opts: BrowserEmbedOptions): Promise<EmbeddingMatrix> {
    return this.run((e) => e.embed(texts, opts), opts.signal);
  }

  /** The hub owns the model: a user of it has nothing to release. */
  async dispose(): Promise<void> {}
}

export class EmbedderHub {
  private readonly entries = new Map<string, Entry>();
  /** Each request's unit vectors; asking for them loads no model (a page may fill them from a pack). */
  private readonly unit = new Map<string, UnitVectors>();
  private readonly queue = new RunQueue();
  private readonly keep: number;
  private storePromise: Promise<OwnedVectorStore | null> | null = null;
  private storeFailure = '';
  /**
   * The last note on stored vectors that failed their check and were computed again ('' when
   * none): the embedders it makes set it (browser-embedder-hub.ts), the pages show it.
   */
  readonly cacheDropped: Store<string> = createStore('');

  constructor(private readonly options: EmbedderHubOptions) {
    this.keep = options.keep ?? 4;
  }

  /** The persistent vector cache, opened once; null when there is none or it failed to open. */
  store(): Promise<OwnedVectorStore | null> {
    const open = this.options.openStore;
    this.storePromise ??= open
      ? open().catch((err: unknown) => {
          this.storeFailure = errorMessage(err);
          return null;
        })
      : Promise.resolve(null);
    return this.storePromise;
  }

  /** Why the vector cache could not be opened; empty when it opened (or was never asked). */
  get storeError(): string {
    return this.storeFailure;
  }

  /** Embedding runs queued or running, over every embedder. */
  get pendingRuns(): number {
    return this.queue.pending;
  }

  /** The embedder for `request`, loaded once and kept; a failed load is forgotten. */
  async embedder(
    request: EmbedderRequest,
    onLoad?: (progress: LoadProgress) => void,
  ): Promise<HubEmbedder> {
    const entry = this.entryFor(request, onLoad);
    const loaded = await entry.loaded;
    return new QueuedEmbedder(entry.vectors, loaded, (task, signal) =>
      this.runOn(entry, task, signal),
    );
  }

  /** The unit vectors the hub keeps for `request`'s embedder; this loads nothing. */
  vectors(request: EmbedderRequest): UnitVectors {
    const key = requestKey(request);
    let found = this.unit.get(key);
    if (!found) {
      found = new UnitVectors();
      this.unit.set(key, found);
    }
    return found;
  }

  /** A fresh embedder without the vector cache, not kept: the caller disposes it (timing runs). */
  scratch(request: EmbedderRequest): Promise<LoadedEmbedder> {
    return this.options.create(request, null);
  }

  /** Runs `task` on the entry's embedder in the queue; an evicted embedder is loaded again. */
  private runOn<T>(
    entry: Entry,
    task: (embedder: LoadedEmbedder) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    entry.runs++;
    const run = this.queue.run(async () => {
      const current = entry.disposed ? this.entryFor(entry.request) : entry;
      return task(await current.loaded);
    }, signal);
    return run.finally(() => {
      entry.runs--;
      this.evict();
    });
  }

  async dispose(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    this.unit.clear();
    await Promise.all(entries.map((e) => this.disposeEntry(e)));
    const store = await this.storePromise;
    store?.close();
    this.storePromise = null;
  }

  private entryFor(request: EmbedderRequest, onLoad?: (progress: LoadProgress) => void): Entry {
    const key = requestKey(request);
    const found = this.entries.get(key);
    if (found) {
      // Most recently used last: eviction walks from the front.
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const loaded = this.store().then((store) => this.options.create(request, store, onLoad));
    const entry: Entry = {
      key,
      request,
      loaded,
      vectors: this.vectors(request),
      runs: 0,
      disposed: false,
    };
    this.entries.set(key, entry);
    loaded.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    this.evict();
    return entry;
  }

  private evict(): void {
    let excess = this.entries.size - this.keep;
    for (const entry of [...this.entries.values()]) {
      if (excess <= 0) break;
      if (entry.runs > 0) continue;
      this.entries.delete(entry.key);
      this.unit.delete(entry.key);
      void this.disposeEntry(entry);
      excess--;
    }
  }

  private async disposeEntry(entry: Entry): Promise<void> {
    entry.disposed = true;
    await entry.loaded.then((e) => e.dispose()).catch(() => undefined);
  }
}
/** Where an embedder's vectors are computed, as result lines and CSVs say it. */
export function ranOn(embedder: Pick<HubEmbedder, 'backend' | 'report'>): string {
  if (embedder.report) return backendLabel(embedder.report);
  const backend = embedder.backend;
  return backend === 'node' ? 'onnxruntime-node' : backendLabel({ backend });
}
