import { mean, quantileSorted, sortedAscending } from './stats.ts';

function sortedChecked(values: ArrayLike<number>, name: string): Float64Array {
  const sorted = sortedAscending(values);
  if (sorted.length > 0 && Number.isNaN(sorted[sorted.length - 1])) {
    throw new RangeError(`${name} scores contain NaN`);
  }
  return sorted;
}

/**
 * ROC-AUC of target (positive) over background (negative) scores: the Mann–Whitney U over
 * n1 * n0, a tied pair counting 1/2. Computed by one merge over both sorted groups, which equals
 * the midrank formula U = R1 - n1(n1+1)/2 while staying in exact half-integers. O(n log n).
 * Null when either group is empty.
 */
export function rocAuc(target: ArrayLike<number>, background: ArrayLike<number>): number | null {
  return aucOfSorted(sortedChecked(target, 'target'), sortedChecked(background, 'background'));
}

function aucOfSorted(t: Float64Array, b: Float64Array): number | null {
  if (t.length === 0 || b.length === 0) return null;
  let i = 0;
  let j = 0;
  let u = 0;
  while (i < t.length) {
    const v = t[i];
    while (j < b.length && b[j] < v) j++;
    const below = j;
    let tiedB = 0;
    while (j + tiedB < b.length && b[j + tiedB] === v) tiedB++;
    let tiedT = 0;
    while (i < t.length && t[i] === v) {
      tiedT++;
      i++;
    }
    u += tiedT * below + 0.5 * tiedT * tiedB;
  }
  return u / (t.length * b.length);
}

/**
 * Two-sample Kolmogorov–Smirnov statistic, max |F1(x) - F0(x)| over every distinct value x.
 * Both empirical CDFs step past all copies of x before comparing, so ties never open a gap
 * that does not exist. Null when either group is empty.
 */
export function ksStatistic(
  target: ArrayLike<number>,
  background: ArrayLike<number>,
): number | null {
  return ksOfSorted(sortedChecked(target, 'target'), sortedChecked(background, 'background'));
}

function ksOfSorted(t: Float64Array, b: Float64Array): number | null {
  if (t.length === 0 || b.length === 0) return null;
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < t.length || j < b.length) {
    const v = j >= b.length || (i < t.length && t[i] <= b[j]) ? t[i] : b[j];
    while (i < t.length && t[i] === v) i++;
    while (j < b.length && b[j] === v) j++;
    d = Math.max(d, Math.abs(i / t.length - j / b.length));
  }
  return d;
}

export interface GroupSummary {
  n: number;
  mean: number | null;
  median: number | null;
}

export interface SeparationStats {
  target: GroupSummary;
  background: GroupSummary;
  /** target minus background; null when either group is empty. */
  meanGap: number | null;
  medianGap: number | null;
  auc: number | null;
  ks: number | null;
}

function summarize(values: ArrayLike<number>, sorted: Float64Array): GroupSummary {
  return { n: sorted.length, mean: mean(values), median: quantileSorted(sorted, 0.5) };
}

function gap(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}

export function separationStats(
  target: ArrayLike<number>,
  background: ArrayLike<number>,
): SeparationStats {
  const ts = sortedChecked(target, 'target');
  const bs = sortedChecked(background, 'background');
  const t = summarize(target, ts);
  const b = summarize(background, bs);
  return {
    target: t,
    background: b,
    meanGap: gap(t.mean, b.mean),
    medianGap: gap(t.median, b.median),
    auc: aucOfSorted(ts, bs),
    ks: ksOfSorted(ts, bs),
  };
}
