// The Reproduce page's runs as plain state: one run per view (spec, retriever, prefix, device);
// a new view aborts the run before it, whose result is then dropped; a run waiting for tables
// not loaded yet is retried when the data version moves. Embedding waits in the hub's queue.
import type { LoadProgress } from '../embed/load-progress.ts';
import { EtaClock, type Eta } from '../embed/eta.ts';
import { plural } from '../common/plural.ts';
import { ranOn, type EmbedderHub } from '../embed/embedder-hub.ts';
import type { Embedder } from '../embed/embedder.ts';
import type { ModelDtype } from '../embed/model-registry.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import { UnitVectors } from '../embed/unit-vectors.ts';
import { errorMessage } from '../common/error-message.ts';
import { RunMachine, type RunSteps } from './run-machine.ts';
import { isReleaseSpec } from '../benchmarks/options.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import type { Evaluation } from '../protocol-kit/evaluate.ts';
import { loadLocomoPlusRelease, MissingTablesError } from '../protocol-kit/inputs.ts';
import type { QueryRunner } from '../query/query-client.ts';
import { recomputeRelease, type ReleaseComparison } from '../protocol-kit/locomo-plus-release.ts';
import { retrieverParam, viewDtype, viewRetrieverRef, type ReproduceParams } from './params.ts';
import { denseRetriever } from '../protocol-kit/dense-retriever.ts';
import { RetrieverPool } from '../protocol-kit/pool.ts';
import { resolveRetrieverRef, type ResolvedRetriever } from '../protocol-kit/retriever-ref.ts';
import type { RetrieverProgress } from '../protocol-kit/retriever.ts';
import {
  maxDeviation,
  shortDigest,
  PackMissError,
  type SitePackEntry,
  type SitePacks,
} from '../vectors/site-packs.ts';
import { runProtocol, type ProtocolRun, type RunTimings } from './run.ts';
import { nodeRuntime } from '../embed/node-runtime.ts';
import { VERIFY_SEED, verifyingEmbedder } from './verify-pack.ts';

export type ReproducePhase = 'idle' | 'running' | 'waiting' | 'unavailable' | 'error' | 'cancelled';

export interface ReproduceState {
  phase: ReproducePhase;
  /** The failure, or the tables a waiting run needs. */
  error: string;
  progress: RetrieverProgress | null;
  /** Time left from the texts/s measured so far; null before a batch has finished. */
  eta: Eta | null;
  /** The model's download, before any text is embedded; null when nothing loads. */
  loadProgress: LoadProgress | null;
  evaluation: Evaluation | null;
  timings: RunTimings | null;
  release: ReleaseComparison | null;
  /** Where the vectors were computed ("WASM", "WebGPU", "BM25"…); null before a result. */
  backend: string | null;
  /** Whether the vectors came from the site's pack, or were recomputed against it; null: neither. */
  source: VectorSource | null;
  /** The model reference the result was embedded with; null for BM25 and before a result. */
  model: ModelRef | null;
}

/** The site's pack a run drew from, or compared its own vectors with. */
export type VectorSource =
  | { kind: 'site'; pack: SitePackEntry }
  | {
      kind: 'recomputed';
      pack: SitePackEntry;
      /** Largest |Δ| of any component, this browser's vector against the pack's. */
      maxDeviation: number;
      compared: number;
      /** Texts embedded here that the pack does not hold. */
      missing: number;
    }
  | {
      kind: 'verified';
      pack: SitePackEntry;
      /** Largest |Δ| over the seeded sample re-embedded here. */
      maxDeviation: number;
      compared: number;
    }
  /** The site lists packs but this one could not be read: the run embedded instead. */
  | { kind: 'unreadable'; error: string };

export interface ReproduceResult {
  run?: ProtocolRun;
  release?: ReleaseComparison;
  backend?: string;
  source?: VectorSource;
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
  eta: null,
  loadProgress: null,
  evaluation: null,
  timings: null,
  release: null,
  backend: null,
  source: null,
  model: null,
};

function phaseOf(err: unknown): ReproducePhase {
  if (err instanceof NotOnSiteError) return 'unavailable';
  if (err instanceof MissingTablesError) return 'waiting';
  return 'error';
}

export function isReleaseView(v: ReproduceParams): boolean {
  return isReleaseSpec(v.spec);
}

export function viewKey(v: ReproduceParams): string {
  return JSON.stringify([v.spec, v.retriever, v.dtype, v.queryPrefix, v.device, v.vectors]);
}

const STEPS: RunSteps<ReproduceState, ReproduceResult> = {
  started: { phase: 'running', error: '', progress: null, eta: null, loadProgress: null },
  finished: (result) => ({
    phase: 'idle',
    evaluation: result.run?.evaluation ?? null,
    timings: result.run?.timings ?? null,
    release: result.release ?? null,
    backend: result.backend ?? null,
    source: result.source ?? null,
    model: result.model ?? null,
  }),
  failed: (err, error) => ({
    phase: phaseOf(err),
    error,
    evaluation: null,
    release: null,
    backend: null,
    source: null,
    model: null,
  }),
  cancelled: {
    phase: 'cancelled',
    error: '',
    progress: null,
    eta: null,
    loadProgress: null,
    evaluation: null,
    release: null,
  },
};

/** The single view's runs: the run machine, asked again when a waiting run's tables arrive. */
export class ReproduceRun<Source> extends RunMachine<ReproduceState, ReproduceResult> {
  private lastVersion = -1;

  constructor(private readonly compute: ReproduceCompute<Source>) {
    super(IDLE_STATE, STEPS);
  }

  /**
   * Called on every change of source, view or data version. Starts a run when the view is new,
   * or when new data arrived for a run waiting for its tables; otherwise does nothing.
   */
  request(source: Source | null, view: ReproduceParams, dataVersion: number): void {
    const key = viewKey(view);
    // New tables only matter to a run that was waiting for them.
    const retry = dataVersion !== this.lastVersion && this.getSnapshot().phase === 'waiting';
    this.lastVersion = dataVersion;
    if (!source || (!this.isNew(key) && !retry)) return;
    const clock = new EtaClock();
    this.run(key, (signal, report) =>
      this.compute(
        source,
        view,
        signal,
        (progress) => report({ progress, eta: clock.update(progress) }),
        (loadProgress) => report({ loadProgress }),
      ),
    );
  }
}

export interface ProtocolComputeDeps {
  hub: EmbedderHub;
  /**
   * Model id → the dtypes the site serves, in registry order (empty: the site lacks it). A view
   * asking none runs fp32 where served, else the first (BGE-small q8 on Pages). Absent: the
   * dtype the view asks for, else the model's default.
   */
  served: Promise<ReadonlyMap<string, readonly ModelDtype[]>>;
  /** The site's vector packs; absent: every run embeds. */
  packs?: SitePacks;
}

type Compute = Parameters<ReproduceCompute<QueryRunner>>;

/** The pack for the model, or why it could not be read; null where there is none. */
async function packFor(
  deps: ProtocolComputeDeps,
  model: ModelRef,
  benchmark: string,
): Promise<SitePackEntry | { error: string } | null> {
  if (!deps.packs) return null;
  try {
    return await deps.packs.find(model.id, model.dtype, benchmark);
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/**
 * The run from the pack alone: no model loads. Null when the pack lacks one of the texts;
 * `unreadable` when the pack could not be fetched or checked. A failed run fails as any run.
 */
async function fromPack(
  deps: ProtocolComputeDeps & { packs: SitePacks },
  pack: SitePackEntry,
  model: ModelRef,
  [reader, view, signal, onProgress]: Compute,
): Promise<ReproduceResult | { unreadable: string } | null> {
  const { spec } = model;
  let vectors;
  try {
    vectors = await deps.packs.vectors(pack, spec);
  } catch (err) {
    return { unreadable: errorMessage(err) };
  }
  const unit = deps.hub.vectors({ model });
  const retriever = denseRetriever(vectors.embedder(spec), {
    queryPrefix: view.queryPrefix,
    vectors: unit,
  });
  try {
    const run = await runProtocol(reader, view.spec, retriever, { signal, onProgress });
    return { run, backend: "the site's vectors", source: { kind: 'site', pack }, model };
  } catch (err) {
    if (err instanceof PackMissError) return null;
    throw err;
  }
}

interface Recorded {
  kind: 'query' | 'document';
  texts: readonly string[];
  rows: Float32Array[];
}

/** The embedder, keeping every row it returns (the vector cache's included) to compare. */
function recording(inner: Embedder): { embedder: Embedder; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const embedder: Embedder = {
    spec: inner.spec,
    backend: inner.backend,
    async embed(texts, opts) {
      const m = await inner.embed(texts, opts);
      const rows = texts.map((_, i) => m.vectors.slice(i * m.dim, (i + 1) * m.dim));
      calls.push({ kind: opts.kind, texts, rows });
      return m;
    },
    dispose: () => inner.dispose(),
  };
  return { embedder, calls };
}

/** Embeds every text of the view in this browser (fresh unit vectors) and compares with the pack. */
async function recompute(
  deps: ProtocolComputeDeps & { packs: SitePacks },
  pool: RetrieverPool,
  pack: SitePackEntry,
  model: ModelRef,
  [reader, view, signal, onProgress]: Compute,
): Promise<ReproduceResult> {
  const hubEmbedder = await pool.embedder(model);
  const { embedder, calls } = recording(hubEmbedder);
  const retriever = denseRetriever(embedder, {
    queryPrefix: view.queryPrefix,
    vectors: new UnitVectors(),
  });
  const run = await runProtocol(reader, view.spec, retriever, { signal, onProgress });
  const vectors = await deps.packs.vectors(pack, hubEmbedder.spec);
  let max = 0;
  let compared = 0;
  let missing = 0;
  for (const call of calls) {
    const d = maxDeviation(
      call.rows,
      await vectors.lookup(hubEmbedder.spec, call.kind, call.texts),
    );
    max = Math.max(max, d.max);
    compared += d.compared;
    missing += d.missing;
  }
  return {
    run,
    backend: ranOn(hubEmbedder),
    source: { kind: 'recomputed', pack, maxDeviation: max, compared, missing },
    model,
  };
}

/** The view from the pack, with a seeded sample of its texts re-embedded here and compared. */
async function verify(
  deps: ProtocolComputeDeps & { packs: SitePacks },
  pool: RetrieverPool,
  pack: SitePackEntry,
  model: ModelRef,
  [reader, view, signal, onProgress]: Compute,
): Promise<ReproduceResult> {
  const vectors = await deps.packs.vectors(pack, model.spec);
  const hubEmbedder = await pool.embedder(model);
  const check = { max: 0, compared: 0 };
  // Fresh unit vectors: the hub's already hold the pack's, and would embed nothing.
  const retriever = denseRetriever(verifyingEmbedder(vectors, hubEmbedder, check), {
    queryPrefix: view.queryPrefix,
    vectors: new UnitVectors(),
  });
  const run = await runProtocol(reader, view.spec, retriever, { signal, onProgress });
  const source: VectorSource = { kind: 'verified', pack, maxDeviation: check.max, ...check };
  return { run, backend: ranOn(hubEmbedder), source, model };
}

/** LoCoMo-Plus's release pairs scored from the pack alone; null where it lacks a text. */
async function releaseFromPack(
  deps: ProtocolComputeDeps,
  model: ModelRef,
  [reader, view, signal, onProgress]: Compute,
): Promise<ReproduceResult | null> {
  if (!deps.packs || view.vectors === 'browser') return null;
  const pack = await packFor(deps, model, view.spec.benchmark);
  if (!pack || 'error' in pack) return null;
  try {
    const vectors = await deps.packs.vectors(pack, model.spec);
    const pairs = await loadLocomoPlusRelease(reader);
    const release = await recomputeRelease(
      pairs,
      vectors.embedder(model.spec),
      deps.hub.vectors({ model }),
      { signal, onProgress, dtype: model.dtype },
    );
    return { release, backend: "the site's vectors", source: { kind: 'site', pack }, model };
  } catch (err) {
    if (signal.aborted) throw err;
    return null;
  }
}

/** The real computation: a protocol run over the tables, or LoCoMo-Plus's release recompute. */
export function protocolCompute(deps: ProtocolComputeDeps): ReproduceCompute<QueryRunner> {
  const { hub, served, packs } = deps;
  return async (reader, view, signal, onProgress, onLoad) => {
    const dtype = viewDtype(view, await served);
    if (dtype === null) throw new NotOnSiteError(retrieverParam(view));
    // The one resolution of the view's retriever: the hub, the worker and the cache key get it.
    const model = resolveRetrieverRef(
      viewRetrieverRef(view),
      { dtype, backend: view.device },
      'ret',
    );
    if (model === BM25_ID && isReleaseView(view)) throw new NotOnSiteError(BM25_ID);
    const pool = new RetrieverPool(hub, onLoad);
    const args: Compute = [reader, view, signal, onProgress, onLoad];
    if (isReleaseView(view) && model !== BM25_ID) {
      const drawn = await releaseFromPack(deps, model, args);
      if (drawn) return drawn;
      const pairs = await loadLocomoPlusRelease(reader);
      const embedder = await pool.embedder(model);
      const release = await recomputeRelease(pairs, embedder, embedder.vectors, {
        signal,
        onProgress,
        dtype: model.dtype,
      });
      return { release, backend: ranOn(embedder), model };
    }
    if (model === BM25_ID) return embedded(pool, model, args);
    const pack = await packFor(deps, model, view.spec.benchmark);
    if (pack && !('error' in pack) && packs) {
      const withPacks = { ...deps, packs };
      if (view.vectors === 'browser') return recompute(withPacks, pool, pack, model, args);
      if (view.vectors === 'verify') return verify(withPacks, pool, pack, model, args);
      const drawn = await fromPack(withPacks, pack, model, args);
      if (drawn && 'unreadable' in drawn) {
        const source: VectorSource = { kind: 'unreadable', error: drawn.unreadable };
        return { ...(await embedded(pool, model, args)), source };
      }
      if (drawn) return drawn;
    }
    const run = await embedded(pool, model, args);
    return pack && 'error' in pack ? { ...run, source: { kind: 'unreadable', ...pack } } : run;
  };
}

async function embedded(
  pool: RetrieverPool,
  model: ResolvedRetriever,
  [reader, view, signal, onProgress]: Compute,
): Promise<ReproduceResult> {
  const retriever = await pool.retriever(model, view.queryPrefix);
  const run = await runProtocol(reader, view.spec, retriever, { signal, onProgress });
  if (model === BM25_ID) return { run, backend: 'BM25 (no model)' };
  return { run, backend: ranOn(await pool.embedder(model)), model };
}

/** The words under a result that say where its vectors came from. */
export function vectorSourceLine(source: VectorSource, label: string, backend: string): string {
  switch (source.kind) {
    case 'site': {
      const { pack } = source;
      return `From the site's vectors (${label}, ${pack.dtype}, ${shortDigest(pack.sha256)}): ${pack.rows.toLocaleString('en')} vectors embedded with ${nodeRuntime(pack.dtype)} when the site was built; nothing was embedded in this browser.`;
    }
    case 'recomputed': {
      const { pack, compared, missing } = source;
      const gap =
        missing > 0
          ? `; ${plural(missing, 'text')} ${missing === 1 ? 'is' : 'are'} not in the pack`
          : '';
      return `Recomputed in this browser (${backend}): max deviation from the site's vectors (${pack.dtype}, ${shortDigest(pack.sha256)}) ${source.maxDeviation.toExponential(1)} over ${plural(compared, 'vector')}${gap}.`;
    }
    case 'verified': {
      const { pack, compared } = source;
      return `From the site's vectors (${label}, ${pack.dtype}, ${shortDigest(pack.sha256)}), verified in this browser (${backend}): ${plural(compared, 'text')} of its ${pack.rows.toLocaleString('en')} (seeded sample, seed ${VERIFY_SEED}) re-embedded here, max deviation ${source.maxDeviation.toExponential(1)}.`;
    }
    case 'unreadable':
      return `The site's vectors could not be read (${source.error}); embedded in this browser instead.`;
  }
}
