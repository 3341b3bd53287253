// The playground's rankings as plain state: BM25 at once, each served model shortly after the
// texts stop changing, all through the protocols' retrievers and the app's embedder hub. A
// ranking superseded by newer texts is aborted and never shown.
import { ranOn, type EmbedderHub, type HubEmbedder } from '../../../lib/embed/embedder-hub.ts';
import { errorMessage } from '../../../lib/common/error-message.ts';
import { createStore, patch } from '../../../lib/common/store.ts';
import { listModelSpecs, offeredSpecs } from '../../../lib/embed/model-registry.ts';
import { parseModelRef } from '../../../lib/embed/model-ref.ts';
import { isServed, type SiteModels } from '../../../lib/embed/site-models.ts';
import type { LoadProgress } from '../../../lib/embed/load-progress.ts';
import { BM25_ID, bm25Retriever } from '../../../lib/protocol-kit/bm25-retriever.ts';
import { denseRetriever } from '../../../lib/protocol-kit/dense-retriever.ts';
import type { Retriever, RetrieverProgress } from '../../../lib/protocol-kit/retriever.ts';
import { UnitVectors } from '../../../lib/embed/unit-vectors.ts';
import {
  packFirst,
  shortDigest,
  type PackFirstCounts,
  type SitePacks,
} from '../../../lib/vectors/site-packs.ts';
import { plural } from '../../../lib/common/plural.ts';
import type { ModelDtype } from '../../../lib/embed/model-registry.ts';
import { rankWith, type Ranking } from './rank.ts';
import { bm25Option, modelOption, playgroundDtype, type RetrieverOption } from './retrievers.ts';

export interface RetrieverResult {
  status: 'loading' | 'running' | 'done' | 'error' | 'cancelled';
  /** The latest finished ranking (kept while a newer one runs). */
  ranking: Ranking | null;
  progress: RetrieverProgress | null;
  /** The model's download while it loads; null once loaded (or for BM25). */
  load: LoadProgress | null;
  detail: string;
  /** Where the finished ranking's vectors were computed ("WASM", "WebGPU", "BM25"). */
  backend: string;
}

export interface PlaygroundSnapshot {
  options: readonly RetrieverOption[];
  /** By retriever id; absent until that retriever was asked for. */
  results: Readonly<Record<string, RetrieverResult>>;
}

export interface RankRequest {
  background: readonly string[];
  memories: readonly string[];
  query: string;
  /** The dense models to rank with besides BM25. */
  models: readonly string[];
}

export interface PlaygroundSessionDeps {
  hub: EmbedderHub;
  siteModels: Promise<SiteModels>;
  /** How long the texts must stay unchanged before the models run; default 250 ms. */
  delayMs?: number;
  /** The site's own vectors: a model whose pack holds the background turns embeds only the rest. */
  sitePacks?: SitePacks;
  /** Calls `retry` each time the network comes back; returns how to stop. */
  backOnline?: (retry: () => void) => () => void;
}

/** A model's texts answered from the site's pack: its digest and the running counts. */
interface PackSource {
  sha256: string;
  counts: PackFirstCounts;
}

/** "WASM; 486 texts from the site's vectors (sha256 …), 4 embedded here" for one ranking. */
export function packBackendLine(backend: string, sha256: string, delta: PackFirstCounts): string {
  if (delta.fromPack === 0) return backend;
  const from = `${plural(delta.fromPack, 'text')} from the site's vectors (${shortDigest(sha256)})`;
  return `${backend}; ${from}, ${delta.embedded.toLocaleString('en')} embedded in this browser`;
}

const EMPTY: RetrieverResult = {
  status: 'loading',
  ranking: null,
  progress: null,
  load: null,
  detail: '',
  backend: '',
};

function initialOptions(): RetrieverOption[] {
  // Until the site's models are known, the test model is not offered (production sites lack it).
  const specs = offeredSpecs(listModelSpecs(), () => false);
  return [bm25Option(), ...specs.map((s) => modelOption(s, null))];
}

export class PlaygroundSession {
  private readonly state = createStore<PlaygroundSnapshot>({
    options: initialOptions(),
    results: {},
  });
  readonly subscribe = this.state.subscribe;
  readonly getSnapshot = this.state.get;
  private readonly bm25 = bm25Retriever();
  private readonly dense = new Map<string, Promise<Retriever>>();
  private readonly backends = new Map<string, string>();
  private readonly packSources = new Map<string, PackSource>();
  private readonly runs = new Map<string, AbortController>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: RankRequest | null = null;
  private readonly stopWatchingOnline: () => void;

  constructor(private readonly deps: PlaygroundSessionDeps) {
    this.stopWatchingOnline = deps.backOnline?.(() => this.retryFailed()) ?? (() => undefined);
    deps.siteModels
      .then((models) => {
        const options = [
          bm25Option(),
          ...offeredSpecs(listModelSpecs(), (id) => isServed(models, id)).map((spec) =>
            modelOption(spec, playgroundDtype(models, spec)),
          ),
        ];
        patch(this.state, { options });
      })
      .catch(() => undefined);
  }

  private patchResult(id: string, part: Partial<RetrieverResult>): void {
    const { results } = this.state.get();
    patch(this.state, { results: { ...results, [id]: { ...(results[id] ?? EMPTY), ...part } } });
  }

  /** BM25 now; the models once the texts have not changed for `delayMs`. */
  rank(request: RankRequest): void {
    clearTimeout(this.timer);
    this.last = request;
    this.run(BM25_ID, async () => this.bm25, request);
    this.timer = setTimeout(() => {
      for (const id of request.models) this.run(id, () => this.retriever(id), request);
    }, this.deps.delayMs ?? 250);
  }

  private retriever(id: string): Promise<Retriever> {
    let retriever = this.dense.get(id);
    if (!retriever) {
      const dtype = this.state.get().options.find((o) => o.id === id)?.dtype;
      retriever = dtype
        ? this.deps.hub
            .embedder({ model: parseModelRef(id, { dtype }, 'the Playground model') }, (load) => {
              if (this.state.get().results[id]?.status === 'loading')
                this.patchResult(id, { load });
            })
            .then((e) => this.denseOf(id, dtype, e))
        : Promise.reject(new Error(`${id} is not served by this site`));
      this.dense.set(id, retriever);
      retriever.catch(() => this.dense.delete(id));
    }
    return retriever;
  }

  /**
   * The model's retriever: from the site's pack first where it has one (its vectors are kept
   * apart from the page's cache of this browser's own), else the model alone.
   */
  private async denseOf(id: string, dtype: ModelDtype, e: HubEmbedder): Promise<Retriever> {
    this.backends.set(id, ranOn(e));
    const vectors = await this.deps.sitePacks?.vectorsOf(id, dtype, e.spec).catch(() => null);
    if (!vectors) return denseRetriever(e, { queryPrefix: true, vectors: e.vectors });
    const counts = { fromPack: 0, embedded: 0 };
    this.packSources.set(id, { sha256: vectors.entry.sha256, counts });
    return denseRetriever(packFirst(e, vectors, counts), {
      queryPrefix: true,
      vectors: new UnitVectors(),
    });
  }

  /** The backend line of one finished ranking, with what the site's pack answered in it. */
  private backendOf(id: string, before: PackFirstCounts | null): string {
    const backend = this.backends.get(id) ?? 'BM25 (no model)';
    const source = this.packSources.get(id);
    if (!source || !before) return backend;
    return packBackendLine(backend, source.sha256, {
      fromPack: source.counts.fromPack - before.fromPack,
      embedded: source.counts.embedded - before.embedded,
    });
  }

  private run(id: string, retriever: () => Promise<Retriever>, request: RankRequest): void {
    this.runs.get(id)?.abort();
    const controller = new AbortController();
    this.runs.set(id, controller);
    const { signal } = controller;
    const loading = id !== BM25_ID && !this.dense.has(id);
    this.patchResult(id, { status: loading ? 'loading' : 'running', progress: null, detail: '' });
    const { background, memories, query } = request;
    let before: PackFirstCounts | null = null;
    retriever()
      .then((r) => {
        const counts = this.packSources.get(id)?.counts;
        before = counts ? { ...counts } : null;
        return rankWith(r, background, memories, query, {
          signal,
          onProgress: (progress) => {
            if (!signal.aborted) this.patchResult(id, { status: 'running', progress, load: null });
          },
        });
      })
      .then(
        (ranking) => {
          if (signal.aborted) return;
          const backend = this.backendOf(id, before);
          this.patchResult(id, { status: 'done', ranking, progress: null, load: null, backend });
        },
        (err: unknown) => {
          if (!signal.aborted) this.patchResult(id, { status: 'error', detail: errorMessage(err) });
        },
      );
  }

  /** Stops one model's run (what it embedded stays cached); `again` or new texts rerun it. */
  cancel(id: string): void {
    const status = this.state.get().results[id]?.status;
    if (status !== 'loading' && status !== 'running') return;
    this.runs.get(id)?.abort();
    this.runs.delete(id);
    this.patchResult(id, { status: 'cancelled', progress: null, load: null });
  }

  /** Runs a cancelled or failed model again on the last texts. */
  again(id: string): void {
    if (this.last && id !== BM25_ID) this.run(id, () => this.retriever(id), this.last);
  }

  /** Runs every model whose last run failed again (a model that was missing offline, say). */
  retryFailed(): void {
    const { results } = this.state.get();
    for (const [id, result] of Object.entries(results)) {
      if (result.status === 'error' && id !== BM25_ID) this.again(id);
    }
  }

  dispose(): void {
    this.stopWatchingOnline();
    clearTimeout(this.timer);
    for (const run of this.runs.values()) run.abort();
    this.runs.clear();
    this.state.close();
  }
}
