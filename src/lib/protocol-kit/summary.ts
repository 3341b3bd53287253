import { histogram } from '../analysis/histogram.ts';
import {
  bootstrapSeparation,
  wilson,
  type Interval,
  type IntervalMethod,
  type SeparationIntervals,
} from '../analysis/intervals.ts';
import { meanRecallCurve, recallCurve } from '../analysis/recall.ts';
import { separationStats, type SeparationStats } from '../analysis/separation.ts';
import type { Evaluation, QueryOutcome } from './evaluate.ts';

export interface RecallCell {
  series: string;
  /** The query group (category, domain…); null for the whole series. Never a sentinel string. */
  group: string | null;
  k: number;
  /** Mean over scorable queries of |credited gold| / |gold|; null when none is scorable. */
  recall: number | null;
  /** Sum of per-query recalls: an integer count of hits when every query has one gold id. */
  hits: number;
  queries: number;
  /** 95% interval of `recall`; null when no query is scorable. */
  interval: Interval | null;
  /** Always Wilson (see `recallInterval`): one method in every table and curve. */
  method: IntervalMethod;
  /** Some query has several gold ids, so `hits` sums fractions rather than counting hits. */
  partialCredit: boolean;
}

/** A row of a series × group table: the whole series (group null) or one group of it. */
export interface SeriesGroup {
  series: string;
  group: string | null;
}

/** The whole series' row, not one of its groups (a group may be named "all"). */
export const isWholeSeries = (row: { group: string | null }): boolean => row.group === null;

/**
 * What a row of an exported table covers, in a column of its own beside `group` (empty on a
 * `series` row): the whole series, or one group of it.
 */
export const levelOf = (row: { group: string | null }): 'series' | 'group' =>
  row.group === null ? 'series' : 'group';

/** A key for a (series, group) row that no two different rows share, whatever their values. */
export const seriesGroupKey = (row: SeriesGroup): string => JSON.stringify([row.series, row.group]);

/** The distinct groups of some queries, sorted; queries without a group belong to none. */
export function groupsOf(queries: readonly { group: string | null }[]): string[] {
  const groups = new Set<string>();
  for (const q of queries) if (q.group !== null) groups.add(q.group);
  return [...groups].sort();
}

export function seriesOf(evaluation: Evaluation): string[] {
  return [...new Set(evaluation.outcomes.map((o) => o.query.series))];
}

/** |gold credited within the first k| / |gold| for one scorable query. */
export function queryRecall(o: QueryOutcome, k: number): number {
  const found = o.goldRanks.filter((r) => r !== null && r <= k).length;
  return found / o.goldRanks.length;
}

/** Recall is a proportion of queries only when each query has exactly one gold id. */
export function isProportion(outcomes: readonly QueryOutcome[]): boolean {
  return outcomes.every((o) => o.goldRanks.length === 1);
}

/**
 * The 95% interval of a mean recall: Wilson on `hits` of `n`, also when `hits` sums fractions.
 * Per-query recall lies in [0, 1], so its variance is at most p(1 − p) and Wilson is conservative
 * there; a bootstrap would instead give a zero-width interval whenever the queries agree (one
 * query at 0.5 gave "[50.0, 50.0]" beside a 1/1 row's "[20.7, 100.0]").
 */
export function recallInterval(hits: number, n: number): Interval | null {
  return wilson(Math.min(n, Math.max(0, hits)), n);
}

function cell(
  series: string,
  group: string | null,
  k: number,
  outcomes: QueryOutcome[],
): RecallCell {
  const perQuery = outcomes.map((o) => queryRecall(o, k));
  const hits = perQuery.reduce((s, r) => s + r, 0);
  const n = outcomes.length;
  const proportion = isProportion(outcomes);
  return {
    series,
    group,
    k,
    recall: n === 0 ? null : hits / n,
    hits,
    queries: n,
    interval: recallInterval(proportion ? Math.round(hits) : hits, n),
    method: 'wilson',
    partialCredit: !proportion,
  };
}

function checkK(evaluation: Evaluation, k: number): void {
  if (!Number.isInteger(k) || k < 1 || k > evaluation.kMax) {
    throw new RangeError(`k must be an integer in 1..${evaluation.kMax}, got ${k}`);
  }
}

/** recall@k per series (group null) followed by each group of that series, groups sorted. */
export function recallTable(evaluation: Evaluation, k: number): RecallCell[] {
  checkK(evaluation, k);
  const rows: RecallCell[] = [];
  for (const series of seriesOf(evaluation)) {
    const inSeries = evaluation.outcomes.filter((o) => o.query.series === series);
    rows.push(cell(series, null, k, inSeries));
    for (const g of groupsOf(inSeries.map((o) => o.query)))
      rows.push(
        cell(
          series,
          g,
          k,
          inSeries.filter((o) => o.query.group === g),
        ),
      );
  }
  return rows;
}

export interface CurvePoint {
  series: string;
  k: number;
  recall: number;
  /** 95% band (same method as the recall table's cell). */
  lo: number;
  hi: number;
  method: IntervalMethod;
}

/** Mean recall@k for k = 1..kMax per series (the analysis module's prefix-sum curve), with its band. */
export function recallCurves(evaluation: Evaluation): CurvePoint[] {
  return seriesOf(evaluation).flatMap((series) => {
    const inSeries = evaluation.outcomes.filter((o) => o.query.series === series);
    const curves = inSeries.flatMap((o) => recallCurve(o.goldRanks, evaluation.kMax) ?? []);
    const mean = meanRecallCurve(curves).mean ?? new Float64Array(0);
    const n = curves.length;
    const proportion = isProportion(inSeries);
    return Array.from(mean, (recall, i) => {
      const w = recallInterval(proportion ? Math.round(recall * n) : recall * n, n);
      return {
        series,
        k: i + 1,
        recall,
        lo: w?.lo ?? recall,
        hi: w?.hi ?? recall,
        method: 'wilson',
      };
    });
  });
}

export function targetScores(evaluation: Evaluation, series: string): Float64Array {
  return Float64Array.from(
    evaluation.outcomes
      .filter((o) => o.query.series === series)
      .flatMap((o) => o.targets.map((t) => t.score)),
  );
}

export interface SeparationRow {
  series: string;
  stats: SeparationStats;
  /** 95% bootstrap intervals over queries (binned scores); null without both populations. */
  intervals: SeparationIntervals | null;
}

export function separationTable(evaluation: Evaluation): SeparationRow[] {
  return seriesOf(evaluation).map((series) => {
    const inSeries = evaluation.outcomes.filter((o) => o.query.series === series);
    return {
      series,
      stats: separationStats(
        targetScores(evaluation, series),
        evaluation.background.get(series) ?? new Float64Array(0),
      ),
      intervals: bootstrapSeparation(
        inSeries.map((o) => ({
          targets: o.targets.map((t) => t.score),
          background: evaluation.backgroundOf.get(o) ?? new Float64Array(0),
        })),
      ),
    };
  });
}

export type Population = 'target' | 'background';

export interface HistogramBin {
  series: string;
  population: Population;
  start: number;
  end: number;
  density: number;
  count: number;
}

function range(arrays: readonly Float64Array[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] < lo) lo = a[i];
      if (a[i] > hi) hi = a[i];
    }
  }
  if (!(lo < hi)) return Number.isFinite(lo) ? [lo - 0.5, lo + 0.5] : [0, 1];
  return [lo, hi];
}

/** Density histograms of target and background scores, on one shared range for all series. */
export function similarityHistogram(evaluation: Evaluation, bins = 40): HistogramBin[] {
  const parts = seriesOf(evaluation).flatMap((series) => [
    { series, population: 'target' as const, values: targetScores(evaluation, series) },
    {
      series,
      population: 'background' as const,
      values: evaluation.background.get(series) ?? new Float64Array(0),
    },
  ]);
  const [min, max] = range(parts.map((p) => p.values));
  return parts.flatMap(({ series, population, values }) => {
    const h = histogram(values, { min, max, bins, density: true });
    return h.counts.map((count, i) => ({
      series,
      population,
      start: h.edges[i],
      end: h.edges[i + 1],
      density: h.density?.[i] ?? 0,
      count,
    }));
  });
}
