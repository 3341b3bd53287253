export function mean(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

export function sortedAscending(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** Linear interpolation between closest ranks (numpy's default, Hyndman–Fan type 7). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile p must be in [0, 1], got ${p}`);
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  // Skipping interpolation between equal values keeps [Infinity, Infinity] from giving NaN.
  if (sorted[lo] === sorted[hi]) return sorted[lo];
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function median(values: ArrayLike<number>): number | null {
  return quantileSorted(sortedAscending(values), 0.5);
}

/** Sample standard deviation (n - 1 denominator); null below two values. */
export function sampleStd(values: ArrayLike<number>): number | null {
  const m = mean(values);
  if (m === null || values.length < 2) return null;
  let sq = 0;
  for (let i = 0; i < values.length; i++) sq += (values[i] - m) ** 2;
  return Math.sqrt(sq / (values.length - 1));
}
