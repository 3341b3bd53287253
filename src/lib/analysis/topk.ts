export interface ScoredIndex {
  index: number;
  score: number;
}

/**
 * The ranking order used everywhere in this module: higher score first, equal scores by lower
 * index first (a stable, documented rule; numpy's argsort-based top-n does not promise one).
 * NaN ranks after every number.
 */
export function ranksBefore(a: ScoredIndex, b: ScoredIndex): boolean {
  return ranksBeforeRaw(a.index, a.score, b.index, b.score);
}

function ranksBeforeRaw(ai: number, as: number, bi: number, bs: number): boolean {
  const aNaN = Number.isNaN(as);
  const bNaN = Number.isNaN(bs);
  if (aNaN !== bNaN) return bNaN;
  if (!aNaN && as !== bs) return as > bs;
  return ai < bi;
}

export function compareRanked(a: ScoredIndex, b: ScoredIndex): number {
  if (a.index === b.index && Object.is(a.score, b.score)) return 0;
  return ranksBefore(a, b) ? -1 : 1;
}

export function assertK(k: number): void {
  if (!(k >= 0) || (!Number.isInteger(k) && k !== Infinity)) {
    throw new RangeError(`k must be a non-negative integer or Infinity, got ${k}`);
  }
}

/**
 * Streaming top-k in O(n log k): a heap whose root is the worst kept item, so large corpora
 * are never fully sorted.
 */
export class TopKSelector {
  private readonly k: number;
  private readonly indices: number[] = [];
  private readonly scores: number[] = [];

  constructor(k: number) {
    assertK(k);
    this.k = k;
  }

  push(index: number, score: number): void {
    if (this.k === 0) return;
    if (this.indices.length < this.k) {
      this.indices.push(index);
      this.scores.push(score);
      this.siftUp(this.indices.length - 1);
    } else if (ranksBeforeRaw(index, score, this.indices[0], this.scores[0])) {
      this.indices[0] = index;
      this.scores[0] = score;
      this.siftDown(0);
    }
  }

  result(): ScoredIndex[] {
    const out = this.indices.map((index, i) => ({ index, score: this.scores[i] }));
    return out.sort(compareRanked);
  }

  private worse(i: number, j: number): boolean {
    return ranksBeforeRaw(this.indices[j], this.scores[j], this.indices[i], this.scores[i]);
  }

  private swap(i: number, j: number): void {
    [this.indices[i], this.indices[j]] = [this.indices[j], this.indices[i]];
    [this.scores[i], this.scores[j]] = [this.scores[j], this.scores[i]];
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.indices.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < n && this.worse(left, worst)) worst = left;
      if (right < n && this.worse(right, worst)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}

export function topKOfScores(scores: ArrayLike<number>, k: number): ScoredIndex[] {
  const selector = new TopKSelector(k);
  for (let i = 0; i < scores.length; i++) selector.push(i, scores[i]);
  return selector.result();
}
