import type { Embedder } from '../embed/embedder.ts';
import { listModelSpecs } from '../embed/model-registry.ts';
import { bm25Retriever } from './bm25-retriever.ts';
import { denseRetriever, VectorCache } from './dense-retriever.ts';
import type { Retriever } from './retriever.ts';

/** Makes the `Embedder` for a model id: the browser one on the page, the Node one in the CLI. */
export type EmbedderFactory = (modelId: string) => Promise<Embedder>;

export const BM25_ID = 'bm25';

export interface RetrieverChoice {
  id: string;
  label: string;
  dense: boolean;
}

export function retrieverChoices(): RetrieverChoice[] {
  return [
    { id: BM25_ID, label: 'BM25', dense: false },
    ...listModelSpecs().map((s) => ({ id: s.id, label: s.label, dense: true })),
  ];
}

/** Embedders and their vector caches, kept across runs so only new texts are embedded. */
export class RetrieverPool {
  private readonly embedders = new Map<string, Promise<Embedder>>();
  private readonly caches = new Map<string, VectorCache>();

  constructor(private readonly factory: EmbedderFactory | null) {}

  get canEmbed(): boolean {
    return this.factory !== null;
  }

  cache(modelId: string): VectorCache {
    let cache = this.caches.get(modelId);
    if (!cache) {
      cache = new VectorCache();
      this.caches.set(modelId, cache);
    }
    return cache;
  }

  /** The model's embedder, made once and kept (its vector cache is `cache(id)`). */
  async embedder(id: string): Promise<Embedder> {
    if (!this.factory) throw new Error(`no embedder available for "${id}" here: choose BM25`);
    let embedder = this.embedders.get(id);
    if (!embedder) {
      embedder = this.factory(id);
      this.embedders.set(id, embedder);
      embedder.catch(() => this.embedders.delete(id));
    }
    return embedder;
  }

  async retriever(id: string, queryPrefix = true): Promise<Retriever> {
    if (id === BM25_ID) return bm25Retriever();
    return denseRetriever(await this.embedder(id), { queryPrefix, cache: this.cache(id) });
  }

  async dispose(): Promise<void> {
    const all = [...this.embedders.values()];
    this.embedders.clear();
    await Promise.all(all.map(async (e) => (await e).dispose()));
  }
}
