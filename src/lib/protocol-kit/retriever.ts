import type { Corpus, Protocol } from './types.ts';

/** Scores every document of one corpus for a query text. */
export type CorpusScorer = (queryText: string) => Float64Array;

export interface RetrieverProgress {
  done: number;
  total: number;
  cached: number;
}

export interface PrepareOptions {
  onProgress?: (p: RetrieverProgress) => void;
  signal?: AbortSignal;
}

export interface Retriever {
  /** `bm25` or the embedding model id. */
  readonly id: string;
  readonly label: string;
  /** Does whatever every corpus and query needs up front (embedding), once per protocol. */
  prepare(protocol: Protocol, options?: PrepareOptions): Promise<void>;
  forCorpus(corpus: Corpus): CorpusScorer;
}
