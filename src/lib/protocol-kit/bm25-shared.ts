import { BM25_OKAPI_DEFAULTS, type Bm25Params } from '../analysis/bm25.ts';

interface Posting {
  docs: number[];
  freqs: number[];
}

function addDoc(into: Map<string, Posting>, doc: readonly string[], index: number): void {
  const freqs = new Map<string, number>();
  for (const word of doc) freqs.set(word, (freqs.get(word) ?? 0) + 1);
  for (const [word, freq] of freqs) {
    let posting = into.get(word);
    if (!posting) {
      posting = { docs: [], freqs: [] };
      into.set(word, posting);
    }
    posting.docs.push(index);
    posting.freqs.push(freq);
  }
}

const idfOf = (size: number, n: number) => Math.log(size - n + 0.5) - Math.log(n + 0.5);

/**
 * `Bm25Index` over `base + extra` documents, for many small `extra`s on one large `base` (InMind:
 * 486 shared turns + 1 target per task). It performs the same floating-point operations in the
 * same order as `analysis/bm25.ts` (idf summed over terms in first-seen order, each document's
 * score accumulated over query tokens in order), so scores are bit-identical;
 * test/lib/protocol-kit/bm25-shared.test.ts holds it to that. Base idfs are computed once per corpus
 * size, so a corpus costs O(vocabulary) array work instead of O(all tokens) map work.
 */
export class SharedBaseBm25 {
  private readonly params: Readonly<Bm25Params>;
  private readonly postings = new Map<string, Posting>();
  /** Base terms in first-seen order, and each one's position in that order. */
  private readonly terms: string[];
  private readonly termIndex: Map<string, number>;
  private readonly lengths: number[];
  private readonly totalTokens: number;
  private readonly idfBySize = new Map<number, Float64Array>();

  constructor(base: readonly (readonly string[])[], params: Partial<Bm25Params> = {}) {
    this.params = { ...BM25_OKAPI_DEFAULTS, ...params };
    this.lengths = base.map((d) => d.length);
    this.totalTokens = this.lengths.reduce((s, n) => s + n, 0);
    base.forEach((doc, d) => addDoc(this.postings, doc, d));
    this.terms = [...this.postings.keys()];
    this.termIndex = new Map(this.terms.map((t, i) => [t, i]));
  }

  get baseSize(): number {
    return this.lengths.length;
  }

  private baseIdf(size: number): Float64Array {
    let idf = this.idfBySize.get(size);
    if (!idf) {
      idf = Float64Array.from(this.terms, (t) =>
        idfOf(size, this.postings.get(t)?.docs.length ?? 0),
      );
      this.idfBySize.set(size, idf);
    }
    return idf;
  }

  /** A scorer over base + extra (extra docs get indices baseSize, baseSize + 1, …). */
  extend(extra: readonly (readonly string[])[]): (queryTokens: readonly string[]) => Float64Array {
    const { k1, b, epsilon } = this.params;
    const n0 = this.baseSize;
    const added = new Map<string, Posting>();
    extra.forEach((doc, i) => addDoc(added, doc, n0 + i));
    const size = n0 + extra.length;
    const avgdl = size > 0 ? extra.reduce((s, d) => s + d.length, this.totalTokens) / size : 0;

    const idf = Float64Array.from(this.baseIdf(size));
    const newIdf = new Map<string, number>();
    for (const [word, posting] of added) {
      const i = this.termIndex.get(word);
      const baseDf = i === undefined ? 0 : (this.postings.get(word)?.docs.length ?? 0);
      const value = idfOf(size, baseDf + posting.docs.length);
      if (i === undefined) newIdf.set(word, value);
      else idf[i] = value;
    }
    let idfSum = 0;
    for (let i = 0; i < idf.length; i++) idfSum += idf[i];
    for (const value of newIdf.values()) idfSum += value;
    const count = idf.length + newIdf.size;
    const eps = epsilon * (count > 0 ? idfSum / count : 0);

    const lengths = [...this.lengths, ...extra.map((d) => d.length)];
    const norm = Float64Array.from(lengths, (dl) => k1 * (1 - b + (b * dl) / avgdl));
    const weight = (q: string): number | undefined => {
      const i = this.termIndex.get(q);
      const value = i === undefined ? newIdf.get(q) : idf[i];
      return value !== undefined && value < 0 ? eps : value;
    };
    const accumulate = (out: Float64Array, posting: Posting | undefined, w: number) => {
      if (!posting) return;
      for (let i = 0; i < posting.docs.length; i++) {
        const d = posting.docs[i];
        const f = posting.freqs[i];
        out[d] += w * ((f * (k1 + 1)) / (f + norm[d]));
      }
    };
    return (queryTokens) => {
      const out = new Float64Array(size);
      for (const q of queryTokens) {
        const w = weight(q);
        if (w === undefined) continue;
        accumulate(out, this.postings.get(q), w);
        accumulate(out, added.get(q), w);
      }
      return out;
    };
  }
}
