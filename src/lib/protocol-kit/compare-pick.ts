// What the comparison view shows, read from its URL parameters: α, the pair A/B, the series, the
// disagreement lists of that pair and the query opened from them.
import {
  disagreements,
  type ComparedRetriever,
  type Comparison,
  type Disagreement,
} from './compare.ts';
import { isWholeSeries } from './summary.ts';

/** The levels the view offers; the first is the default. */
export const COMPARE_ALPHAS: readonly string[] = ['0.05', '0.01', '0.1'];

export function readAlpha(param: string | undefined): number {
  return COMPARE_ALPHAS.includes(param ?? '') ? Number(param) : Number(COMPARE_ALPHAS[0]);
}

/** `wanted` where it is one of `list`, else the first (empty when the list is). */
export function pickOne(list: readonly string[], wanted: string | undefined): string {
  return list.includes(wanted ?? '') ? (wanted ?? '') : (list[0] ?? '');
}

/** A and B: the asked refs where they are compared and differ, else the first two. */
export function pickPair(
  refs: readonly string[],
  ca: string | undefined,
  cb: string | undefined,
): { a: string; b: string } {
  const a = pickOne(refs, ca);
  const b = refs.includes(cb ?? '') && cb !== a ? (cb ?? '') : (refs.find((r) => r !== a) ?? '');
  return { a, b };
}

export interface PairLists {
  /** Queries A hits and B misses at k. */
  onlyA: Disagreement[];
  /** Queries B hits and A misses at k. */
  onlyB: Disagreement[];
}

/** Where A and B disagree on `series` at k; empty while either is not evaluated. */
export function pairLists(
  retrievers: readonly ComparedRetriever[],
  pair: { a: string; b: string },
  series: string,
  k: number,
): PairLists {
  const a = retrievers.find((r) => r.ref === pair.a)?.evaluation;
  const b = retrievers.find((r) => r.ref === pair.b)?.evaluation;
  if (!a || !b) return { onlyA: [], onlyB: [] };
  return {
    onlyA: disagreements(a, b, series, k, 'a'),
    onlyB: disagreements(a, b, series, k, 'b'),
  };
}

/** The disagreement whose query is `id` (the URL's `cq`), or null. */
export function openedDisagreement(lists: PairLists, id: string | undefined): Disagreement | null {
  return [...lists.onlyA, ...lists.onlyB].find((d) => d.query.id === id) ?? null;
}

/** The per-group recall@k pairs of one series (its whole-series rows are shown above them). */
export function groupPairsOf(
  comparison: Comparison | null,
  series: string,
  k: number,
): Comparison['pairs'] {
  return (
    comparison?.pairs.filter(
      (p) => p.series === series && !isWholeSeries(p) && p.metric === 'recall' && p.k === k,
    ) ?? []
  );
}

/** The exported CSV's file name: benchmark and refs, safe on any file system. */
export function compareCsvName(benchmark: string, refs: readonly string[]): string {
  return `memlens-compare-${benchmark}-${refs.join('-')}.csv`.replace(/[^\w.-]+/g, '_');
}
