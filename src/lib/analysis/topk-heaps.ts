// k-bounded heaps for many queries at once, in flat typed arrays (no per-row objects): the partial
// selection behind the dense searches, with the ranking rule of topk.ts.
import { compareRanked, type ScoredIndex } from './topk.ts';

/** True when (ai, as) ranks below (bi, bs): lower score, NaN lowest, ties by higher index. */
export function worse(ai: number, as: number, bi: number, bs: number): boolean {
  const aNaN = as !== as;
  const bNaN = bs !== bs;
  if (aNaN !== bNaN) return aNaN;
  if (!aNaN && as !== bs) return as < bs;
  return ai > bi;
}

/** k-bounded heaps, one per query, in flat typed arrays; each root is that query's worst kept. */
export class Heaps {
  readonly idx: Int32Array;
  readonly score: Float64Array;
  readonly size: Int32Array;

  constructor(
    readonly count: number,
    readonly k: number,
  ) {
    this.idx = new Int32Array(count * k);
    this.score = new Float64Array(count * k);
    this.size = new Int32Array(count);
  }

  /** Rows arrive in ascending index, so an equal score never displaces a kept row. */
  offer(q: number, row: number, s: number): void {
    const k = this.k;
    if (k === 0) return;
    const base = q * k;
    const n = this.size[q];
    if (n < k) {
      let i = n;
      this.size[q] = n + 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(row, s, this.idx[base + p], this.score[base + p])) break;
        this.idx[base + i] = this.idx[base + p];
        this.score[base + i] = this.score[base + p];
        i = p;
      }
      this.idx[base + i] = row;
      this.score[base + i] = s;
      return;
    }
    const root = this.score[base];
    if (!(s > root || (root !== root && s === s))) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= k) break;
      let w = l;
      const r = l + 1;
      if (
        r < k &&
        worse(this.idx[base + r], this.score[base + r], this.idx[base + l], this.score[base + l])
      )
        w = r;
      if (!worse(this.idx[base + w], this.score[base + w], row, s)) break;
      this.idx[base + i] = this.idx[base + w];
      this.score[base + i] = this.score[base + w];
      i = w;
    }
    this.idx[base + i] = row;
    this.score[base + i] = s;
  }

  sorted(q: number): ScoredIndex[] {
    const base = q * this.k;
    const out: ScoredIndex[] = [];
    for (let i = 0; i < this.size[q]; i++) {
      out.push({ index: this.idx[base + i], score: this.score[base + i] });
    }
    return out.sort(compareRanked);
  }
}
