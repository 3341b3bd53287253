/**
 * Paired comparisons of two retrievers on the same queries: the exact McNemar test on hits,
 * paired bootstrap intervals of differences, Holm's correction and the tie groups it implies.
 */
import {
  BOOTSTRAP_REPS,
  BOOTSTRAP_SEED,
  SEPARATION_REPS,
  binGroups,
  bootstrapMean,
  drawWeights,
  percentileInterval,
  seededRandom,
  weightedAucKs,
  type BootstrapOptions,
  type Interval,
  type ScoreGroup,
} from './intervals.ts';

export interface Discordant {
  /** Queries A hits and B misses. */
  b: number;
  /** Queries B hits and A misses. */
  c: number;
}

/** b and c of two paired 0/1 hit vectors of one length. */
export function discordant(hitsA: ArrayLike<number>, hitsB: ArrayLike<number>): Discordant {
  if (hitsA.length !== hitsB.length) {
    throw new RangeError(`paired hits differ in length: ${hitsA.length} vs ${hitsB.length}`);
  }
  let b = 0;
  let c = 0;
  for (let i = 0; i < hitsA.length; i++) {
    const a = hitsA[i] === 1;
    const o = hitsB[i] === 1;
    if (a && !o) b++;
    else if (o && !a) c++;
  }
  return { b, c };
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** num / 2^exp as the nearest double, without overflowing either part. */
function ratioToPowerOfTwo(num: bigint, exp: number): number {
  const shift = Math.max(0, bitLength(num) - 64);
  const head = Number(num >> BigInt(shift));
  const e = shift - exp;
  const half = Math.trunc(e / 2);
  return head * 2 ** half * 2 ** (e - half);
}

/**
 * Two-sided exact McNemar p: under H0 each of the n = b + c discordant queries falls either way
 * with probability ½, so p = min(1, 2·P(X ≤ min(b, c))) for X ~ Binomial(n, ½); 1 when n = 0.
 * The binomial sum is done in integers, so the p is exact up to its final rounding.
 */
export function mcnemarExact(b: number, c: number): number {
  for (const [name, v] of [
    ['b', b],
    ['c', c],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a count, got ${v}`);
  }
  const n = b + c;
  const m = Math.min(b, c);
  if (n === 0 || 2 * m === n) return 1;
  let term = 1n;
  let sum = 1n;
  for (let i = 1; i <= m; i++) {
    term = (term * BigInt(n - i + 1)) / BigInt(i);
    sum += term;
  }
  // 2 · sum / 2^n, and 2·m < n keeps it below 1.
  return Math.min(1, ratioToPowerOfTwo(sum, n - 1));
}

export interface PairedDelta {
  /** mean(a) − mean(b) over the paired values. */
  delta: number;
  /** 95% percentile bootstrap: each resample draws queries, the same ones for both. */
  interval: Interval;
}

/** Δ of two paired per-query values (e.g. recall@k): the bootstrap of their per-query differences. */
export function pairedBootstrapDelta(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  { reps = BOOTSTRAP_REPS, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
): PairedDelta | null {
  if (a.length !== b.length) {
    throw new RangeError(`paired values differ in length: ${a.length} vs ${b.length}`);
  }
  const d = Float64Array.from({ length: a.length }, (_, i) => a[i] - b[i]);
  const interval = bootstrapMean(d, { reps, seed });
  if (interval === null) return null;
  return { delta: d.reduce((s, x) => s + x, 0) / d.length, interval };
}

/**
 * Paired bootstrap of ΔAUC (target over background scores, pooled over queries): each resample
 * draws queries once and computes both retrievers' binned AUC on that same draw. Each retriever
 * keeps its own score range (BM25 scores and cosines differ in scale). Null without both
 * populations for either retriever.
 */
export function pairedBootstrapAuc(
  a: readonly ScoreGroup[],
  b: readonly ScoreGroup[],
  { reps = SEPARATION_REPS, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
): Interval | null {
  if (a.length !== b.length) {
    throw new RangeError(`paired queries differ in number: ${a.length} vs ${b.length}`);
  }
  if (a.length === 0) return null;
  const binnedA = binGroups(a);
  const binnedB = binGroups(b);
  if (binnedA === null || binnedB === null) return null;
  const random = seededRandom(seed);
  const weights = new Float64Array(a.length);
  const deltas: number[] = [];
  for (let r = 0; r < reps; r++) {
    drawWeights(random, weights);
    const sa = weightedAucKs(binnedA, weights);
    const sb = weightedAucKs(binnedB, weights);
    if (sa && sb) deltas.push(sa.auc - sb.auc);
  }
  return deltas.length === 0 ? null : percentileInterval(Float64Array.from(deltas));
}

/**
 * Holm's step-down adjusted p-values, in the input's order: sorted ascending, the i-th (0-based)
 * of m becomes max over j ≤ i of min(1, (m − j)·p₍ⱼ₎). Controls the family-wise error rate with
 * no assumption on how the tests depend on each other.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p-values must be in [0, 1], got ${p}`);
  }
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}

/** One pair's adjusted p, looked up by the two members' positions (either order). */
export type PairP = (i: number, j: number) => number;

/**
 * Tie groups over members in ranked order (best first): for each member, the longest run from it
 * in which every pair's adjusted p is ≥ alpha (none separable), with runs inside another dropped;
 * a member in no run of two or more stands alone. As the bars of a critical-difference diagram,
 * groups may overlap. Returns [first, last] positions, inclusive.
 */
export function tieGroups(count: number, adjustedP: PairP, alpha = 0.05): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    let last = i;
    while (last + 1 < count && everyTied(i, last + 1, adjustedP, alpha)) last++;
    if (!runs.some(([f, l]) => f <= i && last <= l)) runs.push([i, last]);
  }
  return runs;
}

function everyTied(first: number, added: number, adjustedP: PairP, alpha: number): boolean {
  for (let j = first; j < added; j++) if (adjustedP(j, added) < alpha) return false;
  return true;
}
