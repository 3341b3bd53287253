import type { Embedder } from '../embed/embedder.ts';
import { EmbedderHub, type HubEmbedder, type LoadedEmbedder } from '../embed/embedder-hub.ts';
import { listModelSpecs } from '../embed/model-registry.ts';
import type { ModelRef, ModelRefDefaults } from '../embed/model-ref.ts';
import type { UnitVectors } from '../embed/unit-vectors.ts';
import type { LoadProgress } from '../embed/load-progress.ts';
import { BM25_ID, bm25Retriever } from './bm25-retriever.ts';
import { denseRetriever } from './dense-retriever.ts';
import type { Retriever } from './retriever.ts';
import {
  parseRetrieverRef,
  registryRef,
  resolveRetrieverRef,
  type ResolvedRetriever,
} from './retriever-ref.ts';

export { BM25_ID };

/** Makes the `Embedder` for a model reference: the Node one in the CLI. */
export type EmbedderFactory = (model: ModelRef) => Promise<Embedder>;

/** `bm25`, `ID` or `ID:DTYPE` read and resolved at once; `where` names the text in errors. */
export function parseRetriever(
  text: string,
  defaults: ModelRefDefaults = {},
  where = 'retriever',
): ResolvedRetriever {
  return resolveRetrieverRef(registryRef(parseRetrieverRef(text, where), where), defaults, where);
}

export interface RetrieverChoice {
  id: string;
  label: string;
  dense: boolean;
  /** The test model: offered only where the site serves it. */
  testOnly?: boolean;
}

export function retrieverChoices(): RetrieverChoice[] {
  return [
    { id: BM25_ID, label: 'BM25', dense: false },
    ...listModelSpecs().map((s) => ({
      id: s.id,
      label: s.label,
      dense: true,
      ...(s.testOnly ? { testOnly: true } : {}),
    })),
  ];
}

/** A plain `Embedder` as the hub keeps it; it reports no load and no per-batch progress. */
function asLoaded(embedder: Embedder): LoadedEmbedder {
  return {
    spec: embedder.spec,
    backend: embedder.backend,
    report: null,
    embed: (texts, { kind, signal }) => embedder.embed(texts, { kind, signal }),
    dispose: () => embedder.dispose(),
  };
}

/** A hub over a factory, for the CLI: no vector cache, the same queue and kept vectors. */
export function hubOf(factory: EmbedderFactory): EmbedderHub {
  return new EmbedderHub({ create: async ({ model }) => asLoaded(await factory(model)) });
}

/**
 * The protocols' retrievers by reference: BM25, or a model's embedder with the unit vectors the
 * hub keeps for it, so only new texts are embedded from one run to the next.
 */
export class RetrieverPool {
  private readonly hub: EmbedderHub | null;
  private readonly ownsHub: boolean;

  /** A factory makes a hub the pool owns (and disposes); a hub given is the app's. */
  constructor(
    embedders: EmbedderHub | EmbedderFactory | null,
    /** Bytes of a model load this pool starts (a model already loaded reports nothing). */
    private readonly onLoad?: (progress: LoadProgress) => void,
  ) {
    this.ownsHub = typeof embedders === 'function';
    this.hub = typeof embedders === 'function' ? hubOf(embedders) : embedders;
  }

  get canEmbed(): boolean {
    return this.hub !== null;
  }

  private requireHub(model: ModelRef): EmbedderHub {
    if (!this.hub) throw new Error(`no embedder available for "${model.id}" here: choose BM25`);
    return this.hub;
  }

  /** The model's embedder, made once by the hub and kept. */
  embedder(model: ModelRef): Promise<HubEmbedder> {
    return this.requireHub(model).embedder({ model }, this.onLoad);
  }

  /** The model's unit vectors, kept across runs. */
  vectors(model: ModelRef): UnitVectors {
    return this.requireHub(model).vectors({ model });
  }

  async retriever(ref: ResolvedRetriever, queryPrefix = true): Promise<Retriever> {
    if (ref === BM25_ID) return bm25Retriever();
    const embedder = await this.embedder(ref);
    return denseRetriever(embedder, { queryPrefix, vectors: embedder.vectors });
  }

  async dispose(): Promise<void> {
    if (this.ownsHub) await this.hub?.dispose();
  }
}
