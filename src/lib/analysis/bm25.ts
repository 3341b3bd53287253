import { asciiWordTokens, type Tokenizer } from './tokenize.ts';
import { TopKSelector, type ScoredIndex } from './topk.ts';

export interface Bm25Params {
  k1: number;
  b: number;
  epsilon: number;
}

export const BM25_OKAPI_DEFAULTS: Readonly<Bm25Params> = Object.freeze({
  k1: 1.5,
  b: 0.75,
  epsilon: 0.25,
});

interface Posting {
  docs: number[];
  freqs: number[];
}

/**
 * BM25Okapi exactly as `rank_bm25` 0.2.2 computes it, operation for operation, so scores agree
 * with the Python package to the last bit wherever `Math.log` and CPython's `math.log` agree
 * (they may differ by 1 ulp on some inputs).
 *
 * - idf = log(N - n + 0.5) - log(n + 0.5), summed in first-seen order of the terms (documents in
 *   order, each document's terms in first-occurrence order), as Python's dict iteration does;
 *   the sum's rounding depends on that order.
 * - Terms with idf < 0 (strictly; n > N/2) get eps = epsilon * average_idf, which can itself be
 *   negative when most terms are common.
 * - Each query token adds idf * (f * (k1 + 1) / (f + k1 * (1 - b + b * dl / avgdl))); repeated
 *   query tokens add again and unknown tokens add 0.
 *
 * Only documents containing a term are visited: numpy adds an exact 0 for the rest, which leaves
 * every sum unchanged. Where Python raises (empty corpus, all documents empty) this index is
 * valid and scores everything 0.
 */
export class Bm25Index {
  readonly params: Readonly<Bm25Params>;
  readonly corpusSize: number;
  readonly avgdl: number;
  readonly averageIdf: number;
  readonly docLengths: readonly number[];
  private readonly idf = new Map<string, number>();
  private readonly postings = new Map<string, Posting>();
  private readonly lengthNorm: Float64Array;

  constructor(tokenizedDocs: readonly (readonly string[])[], params: Partial<Bm25Params> = {}) {
    this.params = Object.freeze({ ...BM25_OKAPI_DEFAULTS, ...params });
    const { k1, b, epsilon } = this.params;
    this.corpusSize = tokenizedDocs.length;
    this.docLengths = tokenizedDocs.map((doc) => doc.length);

    let totalTokens = 0;
    tokenizedDocs.forEach((doc, docIndex) => {
      totalTokens += doc.length;
      const frequencies = new Map<string, number>();
      for (const word of doc) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
      for (const [word, freq] of frequencies) {
        let posting = this.postings.get(word);
        if (!posting) {
          posting = { docs: [], freqs: [] };
          this.postings.set(word, posting);
        }
        posting.docs.push(docIndex);
        posting.freqs.push(freq);
      }
    });
    this.avgdl = this.corpusSize > 0 ? totalTokens / this.corpusSize : 0;

    let idfSum = 0;
    const negative: string[] = [];
    for (const [word, posting] of this.postings) {
      const n = posting.docs.length;
      const idf = Math.log(this.corpusSize - n + 0.5) - Math.log(n + 0.5);
      this.idf.set(word, idf);
      idfSum += idf;
      if (idf < 0) negative.push(word);
    }
    this.averageIdf = this.idf.size > 0 ? idfSum / this.idf.size : 0;
    const eps = epsilon * this.averageIdf;
    for (const word of negative) this.idf.set(word, eps);

    this.lengthNorm = Float64Array.from(
      this.docLengths,
      (dl) => k1 * (1 - b + (b * dl) / this.avgdl),
    );
  }

  static fromTexts(
    texts: readonly string[],
    tokenizer: Tokenizer = asciiWordTokens,
    params: Partial<Bm25Params> = {},
  ): Bm25Index {
    return new Bm25Index(texts.map(tokenizer), params);
  }

  /** The (floored) idf of a term; 0 for a term absent from the corpus, as `idf.get(q) or 0`. */
  idfOf(term: string): number {
    return this.idf.get(term) ?? 0;
  }

  scores(queryTokens: readonly string[]): Float64Array {
    const { k1 } = this.params;
    const out = new Float64Array(this.corpusSize);
    for (const q of queryTokens) {
      const posting = this.postings.get(q);
      if (!posting) continue;
      const idf = this.idf.get(q) ?? 0;
      const { docs, freqs } = posting;
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i];
        const f = freqs[i];
        out[d] += idf * ((f * (k1 + 1)) / (f + this.lengthNorm[d]));
      }
    }
    return out;
  }

  /** Highest scores first; equal scores keep the lower document index first. */
  topK(queryTokens: readonly string[], k: number): ScoredIndex[] {
    const selector = new TopKSelector(k);
    const scores = this.scores(queryTokens);
    for (let i = 0; i < scores.length; i++) selector.push(i, scores[i]);
    return selector.result();
  }
}
