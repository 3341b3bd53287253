import { l2Normalize } from '../analysis/cosine.ts';
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

/** Four accumulators: about 1.6× faster in V8 than one, and this loop is the dense path's cost. */
function unitDot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < a.length; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < a.length; i++) s0 += a[i] * b[i];
  return s0 + s1 + (s2 + s3);
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
      const rows = corpus.docs.map((d) => need('document', d));
      return (query) => {
        const q = need(queryKind, query);
        const out = new Float64Array(rows.length);
        for (let r = 0; r < rows.length; r++) out[r] = unitDot(q, rows[r]);
        return out;
      };
    },
  };
}
