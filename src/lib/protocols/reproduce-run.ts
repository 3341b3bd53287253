// The Reproduce page's runs as plain state: one run per view (spec, retriever, prefix, device);
// a new view aborts the run before it, whose result is then dropped; a run waiting for tables
// not loaded yet is retried when the data version moves. Embedding waits in the hub's queue.
import type { LoadProgress } from '../embed/load-progress.ts';
import type { Catalog } from '../db/catalog.ts';
import { ranOn, type EmbedderHub } from '../embed/embedder-hub.ts';
import type { ModelDtype } from '../embed/model-registry.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import { errorMessage } from '../common/error-message.ts';
import { createStore, patch } from '../common/store.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import type { Evaluation } from '../protocol-kit/evaluate.ts';
import { loadLocomoPlusRelease, MissingTablesError } from '../protocol-kit/inputs.ts';
import { recomputeRelease, type ReleaseComparison } from '../protocol-kit/locomo-plus-release.ts';
import type { ReproduceParams } from './params.ts';
import { parseRetriever, RetrieverPool } from '../protocol-kit/pool.ts';
import type { RetrieverProgress } from '../protocol-kit/retriever.ts';
import { runProtocol, type ProtocolRun, type RunTimings } from './run.ts';

export type ReproducePhase = 'idle' | 'running' | 'waiting' | 'unavailable' | 'error' | 'cancelled';

export interface ReproduceState {
  phase: ReproducePhase;
  /** The failure, or the tables a waiting run needs. */
  error: string;
  progress: RetrieverProgress | null;
  /** The model's download, before any text is embedded; null when nothing loads. */
  loadProgress: LoadProgress | null;
  evaluation: Evaluation | null;
  timings: RunTimings | null;
  release: ReleaseComparison | null;
  /** Where the vectors were computed ("WASM", "WebGPU", "BM25"…); null before a result. */
  backend: string | null;
  /** The model reference the result was embedded with; null for BM25 and before a result. */
  model: ModelRef | null;
}

export interface ReproduceResult {
  run?: ProtocolRun;
  release?: ReleaseComparison;
  backend?: string;
  model?: ModelRef;
}

/** The retriever cannot run on this site (a model it does not serve; BM25 in release mode). */
export class NotOnSiteError extends Error {
  constructor(readonly retriever: string) {
    super(`${retriever} cannot run on this site`);
    this.name = 'NotOnSiteError';
  }
}

export type ReproduceCompute<Source> = (
  source: Source,
  view: ReproduceParams,
  signal: AbortSignal,
  onProgress: (p: RetrieverProgress) => void,
  onLoad?: (p: LoadProgress) => void,
) => Promise<ReproduceResult>;

export const IDLE_STATE: ReproduceState = {
  phase: 'idle',
  error: '',
  progress: null,
  loadProgress: null,
  evaluation: null,
  timings: null,
  release: null,
  backend: null,
  model: null,
};

function phaseOf(err: unknown): ReproducePhase {
  if (err instanceof NotOnSiteError) return 'unavailable';
  if (err instanceof MissingTablesError) return 'waiting';
  return 'error';
}

export function isReleaseView(v: ReproduceParams): boolean {
  return v.spec.benchmark === 'locomo-plus' && v.spec.locomoPlus === 'release';
}

export function viewKey(v: ReproduceParams): string {
  return JSON.stringify([v.spec, v.retriever, v.queryPrefix, v.device]);
}

export class ReproduceRun<Source> {
  private readonly state = createStore(IDLE_STATE);
  readonly subscribe = this.state.subscribe;
  readonly getSnapshot = this.state.get;
  private current: AbortController | null = null;
  private lastKey = '';
  private lastVersion = -1;

  constructor(private readonly compute: ReproduceCompute<Source>) {}

  /**
   * Called on every change of source, view or data version. Starts a run when the view is new,
   * or when new data arrived for a run waiting for its tables; otherwise does nothing.
   */
  request(source: Source | null, view: ReproduceParams, dataVersion: number): void {
    const key = viewKey(view);
    // New tables only matter to a run that was waiting for them.
    const retry = dataVersion !== this.lastVersion && this.state.get().phase === 'waiting';
    this.lastVersion = dataVersion;
    if (!source || (key === this.lastKey && !retry)) return;
    this.lastKey = key;
    this.current?.abort();
    const controller = new AbortController();
    this.current = controller;
    const { signal } = controller;
    patch(this.state, { phase: 'running', error: '', progress: null, loadProgress: null });
    this.compute(
      source,
      view,
      signal,
      (progress) => {
        if (!signal.aborted) patch(this.state, { progress });
      },
      (loadProgress) => {
        if (!signal.aborted) patch(this.state, { loadProgress });
      },
    ).then(
      (result) => {
        if (signal.aborted) return;
        patch(this.state, {
          phase: 'idle',
          evaluation: result.run?.evaluation ?? null,
          timings: result.run?.timings ?? null,
          release: result.release ?? null,
          backend: result.backend ?? null,
          model: result.model ?? null,
        });
      },
      (err: unknown) => {
        if (signal.aborted) return;
        patch(this.state, {
          phase: phaseOf(err),
          error: errorMessage(err),
          evaluation: null,
          release: null,
          backend: null,
          model: null,
        });
      },
    );
  }

  /** Stops the run in progress (its embedded batches stay cached); `request` runs the view again. */
  cancel(): void {
    if (this.state.get().phase !== 'running') return;
    this.current?.abort();
    this.current = null;
    this.lastKey = '';
    patch(this.state, {
      phase: 'cancelled',
      error: '',
      progress: null,
      loadProgress: null,
      evaluation: null,
      release: null,
    });
  }

  dispose(): void {
    this.current?.abort();
    this.current = null;
    this.state.close();
  }
}

export interface ProtocolComputeDeps {
  hub: EmbedderHub;
  /**
   * Model id → the dtype the site serves it in (fp32 where it has it, else the first it has, e.g.
   * BGE-small q8 on Pages), or null when the site lacks it. Absent: the model's default dtype.
   */
  served: Promise<ReadonlyMap<string, ModelDtype | null>>;
}

/** The real computation: a protocol run over the catalog, or LoCoMo-Plus's release recompute. */
export function protocolCompute({ hub, served }: ProtocolComputeDeps): ReproduceCompute<Catalog> {
  return async (catalog, view, signal, onProgress, onLoad) => {
    const dtype = view.retriever === BM25_ID ? undefined : (await served).get(view.retriever);
    if (dtype === null) throw new NotOnSiteError(view.retriever);
    // The one parse of the picked model: the hub, the worker and the cache key get this reference.
    const ref = parseRetriever(view.retriever, { dtype, backend: view.device }, 'ret');
    if (ref === BM25_ID && isReleaseView(view)) throw new NotOnSiteError(BM25_ID);
    const pool = new RetrieverPool(hub, onLoad);
    if (isReleaseView(view) && ref !== BM25_ID) {
      const pairs = await loadLocomoPlusRelease(catalog);
      const embedder = await pool.embedder(ref);
      const release = await recomputeRelease(pairs, embedder, embedder.vectors, {
        signal,
        onProgress,
        dtype: ref.dtype,
      });
      return { release, backend: ranOn(embedder), model: ref };
    }
    const retriever = await pool.retriever(ref, view.queryPrefix);
    const run = await runProtocol(catalog, view.spec, retriever, { signal, onProgress });
    if (ref === BM25_ID) return { run, backend: 'BM25 (no model)' };
    return { run, backend: ranOn(await pool.embedder(ref)), model: ref };
  };
}
