import { BM25_OKAPI_DEFAULTS, type Bm25Params } from '../analysis/bm25.ts';

interface Posting {
  docs: number[];
  freqs: number[];
}

function termFrequencies(doc: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const word of doc) out.set(word, (out.get(word) ?? 0) + 1);
  return out;
}

/**
 * `Bm25Index` over `base + extra` documents, for many small `extra`s on one large `base` (InMind:
 * 486 shared turns + 1 target per task). It performs the same floating-point operations in the
 * same order as `analysis/bm25.ts` (terms in first-seen order, postings by ascending document), so
 * scores are bit-identical; test/lib/protocols/bm25-shared.test.ts holds it to that. Only the
 * per-corpus work changes: O(vocabulary + extra) instead of O(all tokens).
 */
export class SharedBaseBm25 {
  private readonly params: Readonly<Bm25Params>;
  private readonly postings = new Map<string, Posting>();
  private readonly lengths: number[];
  private readonly totalTokens: number;

  constructor(base: readonly (readonly string[])[], params: Partial<Bm25Params> = {}) {
    this.params = { ...BM25_OKAPI_DEFAULTS, ...params };
    this.lengths = base.map((d) => d.length);
    this.totalTokens = this.lengths.reduce((s, n) => s + n, 0);
    base.forEach((doc, d) => this.addDoc(this.postings, doc, d));
  }

  private addDoc(into: Map<string, Posting>, doc: readonly string[], index: number): void {
    for (const [word, freq] of termFrequencies(doc)) {
      let posting = into.get(word);
      if (!posting) {
        posting = { docs: [], freqs: [] };
        into.set(word, posting);
      }
      posting.docs.push(index);
      posting.freqs.push(freq);
    }
  }

  get baseSize(): number {
    return this.lengths.length;
  }

  /** A scorer over base + extra (extra docs get indices baseSize, baseSize + 1, …). */
  extend(extra: readonly (readonly string[])[]): (queryTokens: readonly string[]) => Float64Array {
    const { k1, b, epsilon } = this.params;
    const n0 = this.baseSize;
    const added = new Map<string, Posting>();
    extra.forEach((doc, i) => this.addDoc(added, doc, n0 + i));
    const size = n0 + extra.length;
    const total = extra.reduce((s, d) => s + d.length, this.totalTokens);
    const avgdl = size > 0 ? total / size : 0;

    const idf = new Map<string, number>();
    const docFreq = (word: string) =>
      (this.postings.get(word)?.docs.length ?? 0) + (added.get(word)?.docs.length ?? 0);
    let idfSum = 0;
    const negative: string[] = [];
    const visit = (word: string) => {
      const n = docFreq(word);
      const value = Math.log(size - n + 0.5) - Math.log(n + 0.5);
      idf.set(word, value);
      idfSum += value;
      if (value < 0) negative.push(word);
    };
    for (const word of this.postings.keys()) visit(word);
    for (const word of added.keys()) if (!this.postings.has(word)) visit(word);
    const eps = epsilon * (idf.size > 0 ? idfSum / idf.size : 0);
    for (const word of negative) idf.set(word, eps);

    const lengths = [...this.lengths, ...extra.map((d) => d.length)];
    const norm = Float64Array.from(lengths, (dl) => k1 * (1 - b + (b * dl) / avgdl));
    return (queryTokens) => {
      const out = new Float64Array(size);
      for (const q of queryTokens) {
        const w = idf.get(q);
        if (w === undefined) continue;
        for (const posting of [this.postings.get(q), added.get(q)]) {
          if (!posting) continue;
          for (let i = 0; i < posting.docs.length; i++) {
            const d = posting.docs[i];
            const f = posting.freqs[i];
            out[d] += w * ((f * (k1 + 1)) / (f + norm[d]));
          }
        }
      }
      return out;
    };
  }
}
