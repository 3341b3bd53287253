import { packedScorer } from '../analysis/dense-search.ts';
import type { EmbedKind, Embedder } from '../embed/embedder.ts';
import { UnitVectors } from '../embed/unit-vectors.ts';
import type { CorpusScorer, PrepareOptions, Retriever } from './retriever.ts';
import type { Corpus, Protocol } from './types.ts';

export interface DenseOptions {
  /** Embed queries as queries (model's query prefix, e.g. bge) or as plain documents. */
  queryPrefix: boolean;
  /** The model's vectors, kept across runs (the hub's, on the page); a fresh set otherwise. */
  vectors?: UnitVectors;
}

/** Cosine over unit vectors; every text is embedded once per model and kind. */
export function denseRetriever(embedder: Embedder, options: DenseOptions): Retriever {
  const vectors = options.vectors ?? new UnitVectors();
  const queryKind: EmbedKind = options.queryPrefix ? 'query' : 'document';
  return {
    id: embedder.spec.id,
    label: embedder.spec.label,
    async prepare(protocol: Protocol, opts: PrepareOptions = {}) {
      const docs = [...protocol.corpora.values()].flatMap((c) => c.docs);
      const queries = protocol.queries.map((q) => q.text);
      await vectors.fill(
        embedder,
        [
          { kind: 'document', texts: docs },
          { kind: queryKind, texts: queries },
        ],
        opts,
      );
    },
    forCorpus(corpus: Corpus): CorpusScorer {
      // One contiguous matrix per corpus (analysis/dense-search.ts), scored bit-identically.
      const score = packedScorer(corpus.docs.map((d) => vectors.need('document', d)));
      return (query) => score(vectors.need(queryKind, query));
    },
  };
}
