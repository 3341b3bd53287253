import { l2Normalize } from '../analysis/cosine.ts';
import { packedScorer } from '../analysis/dense-search.ts';
import type { EmbedKind, Embedder } from '../embed/embedder.ts';
import type { CorpusScorer, PrepareOptions, Retriever } from './retriever.ts';
import type { Corpus, Protocol } from './types.ts';

/** Unit vectors by kind and text, for one model; survives across protocol runs. */
export class VectorCache {
  // One map per kind: a composite string key would be rebuilt and rehashed on every lookup.
  private readonly byKind = new Map<EmbedKind, Map<string, Float32Array>>();

  private rows(kind: EmbedKind): Map<string, Float32Array> {
    let rows = this.byKind.get(kind);
    if (!rows) {
      rows = new Map();
      this.byKind.set(kind, rows);
    }
    return rows;
  }

  get(kind: EmbedKind, text: string): Float32Array | undefined {
    return this.rows(kind).get(text);
  }

  set(kind: EmbedKind, text: string, vector: Float32Array): void {
    this.rows(kind).set(text, vector);
  }

  missing(kind: EmbedKind, texts: Iterable<string>): string[] {
    const rows = this.rows(kind);
    return [...new Set(texts)].filter((t) => !rows.has(t));
  }

  get size(): number {
    let n = 0;
    for (const rows of this.byKind.values()) n += rows.size;
    return n;
  }
}

export interface DenseOptions {
  /** Embed queries as queries (model's query prefix, e.g. bge) or as plain documents. */
  queryPrefix: boolean;
  cache?: VectorCache;
}

async function fill(
  embedder: Embedder,
  cache: VectorCache,
  kind: EmbedKind,
  texts: string[],
  options: PrepareOptions,
  offset: { done: number; total: number; cached: number },
): Promise<void> {
  if (texts.length === 0) return;
  const base = offset.done;
  const { dim, vectors } = await embedder.embed(texts, {
    kind,
    signal: options.signal,
    onProgress: (p) => options.onProgress?.({ ...offset, done: base + p.done }),
  });
  texts.forEach((t, i) =>
    cache.set(kind, t, l2Normalize(vectors.subarray(i * dim, (i + 1) * dim))),
  );
  offset.done = base + texts.length;
}

/** Cosine over unit vectors; every text is embedded once per model and kind. */
export function denseRetriever(embedder: Embedder, options: DenseOptions): Retriever {
  const cache = options.cache ?? new VectorCache();
  const queryKind: EmbedKind = options.queryPrefix ? 'query' : 'document';
  const need = (kind: EmbedKind, text: string): Float32Array => {
    const v = cache.get(kind, text);
    if (!v) throw new Error(`no ${kind} vector for ${JSON.stringify(text.slice(0, 40))}`);
    return v;
  };
  return {
    id: embedder.spec.id,
    label: embedder.spec.label,
    async prepare(protocol: Protocol, opts: PrepareOptions = {}) {
      const allDocs = new Set([...protocol.corpora.values()].flatMap((c) => c.docs));
      const allQueries = new Set(protocol.queries.map((q) => q.text));
      const docs = cache.missing('document', allDocs);
      const queries = cache.missing(queryKind, allQueries);
      const total = docs.length + queries.length;
      const cached = allDocs.size + allQueries.size - total;
      const progress = { done: 0, total, cached };
      await fill(embedder, cache, 'document', docs, opts, progress);
      await fill(embedder, cache, queryKind, queries, opts, progress);
    },
    forCorpus(corpus: Corpus): CorpusScorer {
      // One contiguous matrix per corpus (analysis/dense-search.ts), scored bit-identically.
      const score = packedScorer(corpus.docs.map((d) => need('document', d)));
      return (query) => score(need(queryKind, query));
    },
  };
}
