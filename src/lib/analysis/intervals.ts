/** 95% intervals for recomputed numbers: Wilson for proportions, percentile bootstrap otherwise. */
import { nextSeedState, seededRandom, uniformOfState } from './seeded-random.ts';

export { seededRandom };

export interface Interval {
  lo: number;
  hi: number;
}

export type IntervalMethod = 'wilson' | 'bootstrap';

/** The two-sided 95% normal quantile, Φ⁻¹(0.975). */
export const Z95 = 1.959963984540054;
export const BOOTSTRAP_REPS = 1000;
/** One fixed seed, so the page and the CLI print the same interval for the same numbers. */
export const BOOTSTRAP_SEED = 20260101;

/**
 * Wilson score interval for `successes` of `n`: centre (p + z²/2n) / (1 + z²/n), half-width
 * z·√(p(1−p)/n + z²/4n²) / (1 + z²/n). Unlike p ± z√(p(1−p)/n) it stays inside [0, 1] and is not
 * empty at 0/n. Null for n = 0.
 */
export function wilson(successes: number, n: number, z = Z95): Interval | null {
  if (!Number.isInteger(n) || n < 0) throw new RangeError('n must be a non-negative integer');
  if (successes < 0 || successes > n) throw new RangeError('successes must be in 0..n');
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/**
 * The q-quantile of ascending `sorted` by linear interpolation between order statistics
 * (position q·(n−1), R's type 7 and numpy's default).
 */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError('no values');
  const at = q * (sorted.length - 1);
  const i = Math.floor(at);
  const j = Math.min(i + 1, sorted.length - 1);
  return sorted[i] + (at - i) * (sorted[j] - sorted[i]);
}

export interface BootstrapOptions {
  reps?: number;
  seed?: number;
}

/** The 2.5th and 97.5th percentiles of the replicates (sorted in place). */
export function percentileInterval(replicates: Float64Array): Interval {
  replicates.sort();
  return { lo: percentile(replicates, 0.025), hi: percentile(replicates, 0.975) };
}

/** Percentile bootstrap of the mean: `reps` resamples of n values with replacement. */
export function bootstrapMean(
  values: ArrayLike<number>,
  { reps = BOOTSTRAP_REPS, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  // The draws of seededRandom(seed), inlined: this loop runs reps · n times (2.7× faster).
  const sample = Float64Array.from(values);
  let state = seed >>> 0;
  const means = new Float64Array(reps);
  for (let r = 0; r < reps; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      state = nextSeedState(state);
      sum += sample[Math.floor(uniformOfState(state) * n)];
    }
    means[r] = sum / n;
  }
  return percentileInterval(means);
}

/** The percentile interval at each position of a curve, from its replicates there. */
function positionIntervals(byPosition: readonly Float64Array[]): {
  lo: Float64Array;
  hi: Float64Array;
} {
  const lo = new Float64Array(byPosition.length);
  const hi = new Float64Array(byPosition.length);
  byPosition.forEach((replicates, k) => {
    const { lo: l, hi: h } = percentileInterval(replicates);
    lo[k] = l;
    hi[k] = h;
  });
  return { lo, hi };
}

/**
 * Bootstrap of a mean curve: `rows[i]` is query i's curve (e.g. recall@1..K); every resample
 * draws queries, so one draw moves every k together. Returns lo/hi per position.
 */
export function bootstrapMeanCurve(
  rows: readonly Float64Array[],
  { reps = BOOTSTRAP_REPS, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
): { lo: Float64Array; hi: Float64Array } | null {
  const n = rows.length;
  if (n === 0) return null;
  const width = rows[0].length;
  let state = seed >>> 0;
  const byPosition = Array.from({ length: width }, () => new Float64Array(reps));
  const sum = new Float64Array(width);
  for (let r = 0; r < reps; r++) {
    sum.fill(0);
    for (let i = 0; i < n; i++) {
      state = nextSeedState(state);
      const row = rows[Math.floor(uniformOfState(state) * n)];
      for (let k = 0; k < width; k++) sum[k] += row[k];
    }
    for (let k = 0; k < width; k++) byPosition[k][r] = sum[k] / n;
  }
  return positionIntervals(byPosition);
}

/**
 * The same bootstrap for curves that are running sums of sparse steps, e.g. recall@k, which
 * rises by 1/|gold| at each gold id's rank. `steps[i]` holds query i's [position, amount] pairs
 * (positions 0-based, ≥ width ignored); a resample costs O(queries + steps + width), not
 * O(queries · width).
 */
export function bootstrapStepCurve(
  steps: readonly (readonly (readonly [number, number])[])[],
  width: number,
  { reps = BOOTSTRAP_REPS, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
): { lo: Float64Array; hi: Float64Array } | null {
  const n = steps.length;
  if (n === 0) return null;
  let state = seed >>> 0;
  const byPosition = Array.from({ length: width }, () => new Float64Array(reps));
  const delta = new Float64Array(width);
  for (let r = 0; r < reps; r++) {
    delta.fill(0);
    for (let i = 0; i < n; i++) {
      state = nextSeedState(state);
      for (const [at, amount] of steps[Math.floor(uniformOfState(state) * n)]) {
        if (at < width) delta[at] += amount;
      }
    }
    let sum = 0;
    for (let k = 0; k < width; k++) {
      sum += delta[k];
      byPosition[k][r] = sum / n;
    }
  }
  return positionIntervals(byPosition);
}

/** One query's contribution to a target-vs-background comparison. */
export interface ScoreGroup {
  targets: ArrayLike<number>;
  background: ArrayLike<number>;
}

export interface SeparationIntervals {
  auc: Interval;
  ks: Interval;
}

export const SEPARATION_REPS = 200;
export const SEPARATION_BINS = 512;

/** AUC (ties within a bin count ½) and KS of two histograms on the same bins. */
export function binnedAucKs(
  targets: Float64Array,
  background: Float64Array,
): { auc: number; ks: number } | null {
  let nT = 0;
  let nB = 0;
  for (let b = 0; b < targets.length; b++) {
    nT += targets[b];
    nB += background[b];
  }
  if (nT === 0 || nB === 0) return null;
  let below = 0;
  let u = 0;
  let cumT = 0;
  let ks = 0;
  for (let b = 0; b < targets.length; b++) {
    u += targets[b] * (below + 0.5 * background[b]);
    below += background[b];
    cumT += targets[b];
    ks = Math.max(ks, Math.abs(cumT / nT - below / nB));
  }
  return { auc: u / (nT * nB), ks };
}

/** Sparse histogram of one query's scores: parallel bin indices and counts. */
interface SparseHist {
  bins: Int32Array;
  counts: Float64Array;
}

function sparseHist(
  values: ArrayLike<number>,
  min: number,
  scale: number,
  bins: number,
): SparseHist {
  const counts = new Map<number, number>();
  for (let i = 0; i < values.length; i++) {
    const b = Math.min(bins - 1, Math.floor((values[i] - min) * scale));
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  return { bins: Int32Array.from(counts.keys()), counts: Float64Array.from(counts.values()) };
}

function addWeighted(into: Float64Array, h: SparseHist, w: number): void {
  for (let j = 0; j < h.bins.length; j++) into[h.bins[j]] += w * h.counts[j];
}

/** Every query's target and background scores binned on one range (SEPARATION_BINS wide). */
export interface BinnedGroups {
  bins: number;
  hists: readonly { t: SparseHist; b: SparseHist }[];
}

/** Bins each query's scores on the range of all of them; null when there are none. */
export function binGroups(
  groups: readonly ScoreGroup[],
  bins = SEPARATION_BINS,
): BinnedGroups | null {
  let min = Infinity;
  let max = -Infinity;
  for (const g of groups) {
    for (const part of [g.targets, g.background]) {
      for (let i = 0; i < part.length; i++) {
        if (part[i] < min) min = part[i];
        if (part[i] > max) max = part[i];
      }
    }
  }
  if (!Number.isFinite(min) || !Number.isFinite(max)) return null;
  const scale = max > min ? bins / (max - min) : 0;
  const hists = groups.map((g) => ({
    t: sparseHist(g.targets, min, scale, bins),
    b: sparseHist(g.background, min, scale, bins),
  }));
  return { bins, hists };
}

/** Binned AUC and KS of the queries drawn `weights[i]` times each (one bootstrap resample). */
export function weightedAucKs(
  binned: BinnedGroups,
  weights: Float64Array,
): { auc: number; ks: number } | null {
  const histT = new Float64Array(binned.bins);
  const histB = new Float64Array(binned.bins);
  binned.hists.forEach((h, i) => {
    if (weights[i] === 0) return;
    addWeighted(histT, h.t, weights[i]);
    addWeighted(histB, h.b, weights[i]);
  });
  return binnedAucKs(histT, histB);
}

/** How many times each of n queries is drawn in one resample with replacement. */
export function drawWeights(random: () => number, weights: Float64Array): Float64Array {
  const n = weights.length;
  weights.fill(0);
  for (let i = 0; i < n; i++) weights[Math.floor(random() * n)]++;
  return weights;
}

/**
 * Bootstrap over queries of AUC and KS: each resample draws queries with replacement and pools
 * their target and background scores. Scores are binned (SEPARATION_BINS over the observed
 * range) and each query kept as a sparse histogram, so a resample costs one pass over the
 * queries' occupied bins instead of a sort of every score; the interval is for the binned
 * statistic, which differs from the exact one by at most the mass tied within a bin.
 */
export function bootstrapSeparation(
  groups: readonly ScoreGroup[],
  { reps = SEPARATION_REPS, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
  bins = SEPARATION_BINS,
): SeparationIntervals | null {
  if (groups.length === 0) return null;
  const binned = binGroups(groups, bins);
  if (binned === null) return null;
  const random = seededRandom(seed);
  const aucs: number[] = [];
  const kss: number[] = [];
  const weights = new Float64Array(groups.length);
  for (let r = 0; r < reps; r++) {
    const stats = weightedAucKs(binned, drawWeights(random, weights));
    if (stats) {
      aucs.push(stats.auc);
      kss.push(stats.ks);
    }
  }
  if (aucs.length === 0) return null;
  return {
    auc: percentileInterval(Float64Array.from(aucs)),
    ks: percentileInterval(Float64Array.from(kss)),
  };
}
