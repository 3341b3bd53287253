export interface RecallResult<Id> {
  recall: number;
  /** Distinct gold ids found among the first k retrieved positions. */
  hits: number;
  /** Distinct gold ids: the denominator, unknown ones included. */
  goldCount: number;
  /** Distinct gold ids missing from the corpus; empty when no corpus ids were given. */
  unknownGold: Id[];
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer`);
}

/**
 * |set(retrieved[:k]) ∩ set(gold)| / |set(gold)|: the first k positions as given, a repeated
 * retrieved id within them counting once, and every distinct gold id in the denominator even if
 * the corpus lacks it (so a broken gold label lowers recall instead of vanishing; it is reported
 * in `unknownGold`). Null for empty gold, which means "not scorable", not 0.
 */
export function recallAtK<Id>(
  retrievedIds: readonly Id[],
  goldIds: readonly Id[],
  k: number,
  corpusIds?: ReadonlySet<Id>,
): RecallResult<Id> | null {
  checkK(k);
  const gold = new Set(goldIds);
  if (gold.size === 0) return null;
  const found = new Set<Id>();
  const limit = Math.min(k, retrievedIds.length);
  for (let i = 0; i < limit; i++) if (gold.has(retrievedIds[i])) found.add(retrievedIds[i]);
  const unknownGold = corpusIds ? [...gold].filter((id) => !corpusIds.has(id)) : [];
  return { recall: found.size / gold.size, hits: found.size, goldCount: gold.size, unknownGold };
}

/** 1 if any gold id is among the first k retrieved, else 0; null for empty gold. */
export function hitAtK<Id>(
  retrievedIds: readonly Id[],
  goldIds: readonly Id[],
  k: number,
): number | null {
  checkK(k);
  const gold = new Set(goldIds);
  if (gold.size === 0) return null;
  const limit = Math.min(k, retrievedIds.length);
  for (let i = 0; i < limit; i++) if (gold.has(retrievedIds[i])) return 1;
  return 0;
}

export interface MeanResult {
  mean: number | null;
  counted: number;
  skipped: number;
}

/** Mean over the non-null values; null values (unscorable queries) are counted as skipped. */
export function meanRecall(values: readonly (number | null)[]): MeanResult {
  let sum = 0;
  let counted = 0;
  for (const v of values) {
    if (v === null) continue;
    sum += v;
    counted++;
  }
  return { mean: counted === 0 ? null : sum / counted, counted, skipped: values.length - counted };
}

/**
 * 1-based rank of each distinct gold id at its first retrieved position, null if never retrieved.
 * One entry per distinct gold id, in first-occurrence order, for `recallCurve`.
 */
export function goldRanks<Id>(
  retrievedIds: readonly Id[],
  goldIds: readonly Id[],
): (number | null)[] {
  const firstRank = new Map<Id, number>();
  retrievedIds.forEach((id, i) => {
    if (!firstRank.has(id)) firstRank.set(id, i + 1);
  });
  return [...new Set(goldIds)].map((id) => firstRank.get(id) ?? null);
}

/**
 * out[k - 1] = recall@k for k = 1..kMax, from one entry per distinct gold id (its 1-based rank,
 * or null when not retrieved). O(gold + kMax) by counting ranks then taking a prefix sum; agrees
 * with `recallAtK` on the same list. Null for empty gold.
 */
export function recallCurve(ranks: readonly (number | null)[], kMax: number): Float64Array | null {
  checkK(kMax);
  if (ranks.length === 0) return null;
  const atRank = new Float64Array(kMax + 1);
  for (const r of ranks) {
    if (r === null) continue;
    if (!Number.isInteger(r) || r < 1) throw new RangeError(`ranks are 1-based integers, got ${r}`);
    if (r <= kMax) atRank[r]++;
  }
  const out = new Float64Array(kMax);
  let hits = 0;
  for (let k = 1; k <= kMax; k++) {
    hits += atRank[k];
    out[k - 1] = hits / ranks.length;
  }
  return out;
}

/** Pointwise mean of recall curves of one length, skipping null (unscorable) queries. */
export function meanRecallCurve(curves: readonly (Float64Array | null)[]): {
  mean: Float64Array | null;
  counted: number;
  skipped: number;
} {
  let sum: Float64Array | null = null;
  let counted = 0;
  for (const curve of curves) {
    if (curve === null) continue;
    if (sum === null) sum = new Float64Array(curve.length);
    else if (curve.length !== sum.length) throw new RangeError('recall curves differ in length');
    for (let i = 0; i < curve.length; i++) sum[i] += curve[i];
    counted++;
  }
  if (sum !== null) for (let i = 0; i < sum.length; i++) sum[i] /= counted;
  return { mean: sum, counted, skipped: curves.length - counted };
}
