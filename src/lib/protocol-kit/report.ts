import type { Interval } from '../analysis/intervals.ts';
import type { Evaluation } from './evaluate.ts';
import type { PaperComparison } from './paper.ts';
import { plural } from '../common/plural.ts';
import {
  isWholeSeries,
  queryRecall,
  recallTable,
  separationTable,
  type RecallCell,
} from './summary.ts';

/** Recall as the paper prints it: a percentage with one decimal. */
export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`;
}

/**
 * "67/125" when every query has one gold id; otherwise recall is a mean of per-query fractions,
 * so a summed "1022.53/1982" would read as a count: it is shown as the number of queries.
 */
export function formatHits(cell: Pick<RecallCell, 'hits' | 'queries' | 'partialCredit'>): string {
  return !cell.partialCredit
    ? `${Math.round(cell.hits)}/${cell.queries}`
    : `mean of ${plural(cell.queries, 'query', 'queries')} (partial credit)`;
}

/** "[44.9, 62.1]": a 95% interval of a fraction, in percent with one decimal. */
export function formatPercentInterval(interval: Interval | null): string {
  if (interval === null) return '—';
  return `[${(interval.lo * 100).toFixed(1)}, ${(interval.hi * 100).toFixed(1)}]`;
}

/** "[0.412, 0.501]": a 95% interval of a score, three decimals. */
export function formatScoreInterval(interval: Interval | null): string {
  if (interval === null) return '—';
  return `[${interval.lo.toFixed(3)}, ${interval.hi.toFixed(3)}]`;
}

export function intervalNote(cell: Pick<RecallCell, 'partialCredit'>): string {
  return cell.partialCredit ? '95% Wilson on the mean' : '95% Wilson';
}

export function formatScore(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

export const HEADLINE_KS = [1, 5, 10] as const;

/** The lines the CLI prints; the page shows the same cells from the same functions. */
export function summaryLines(
  evaluation: Evaluation,
  k: number,
  comparisons: readonly PaperComparison[] = [],
): string[] {
  const { protocol } = evaluation;
  const lines = [
    `${protocol.benchmark} · ${evaluation.retrieverLabel} · ${plural(evaluation.outcomes.length, 'scorable query', 'scorable queries')}`,
    ...protocol.notes.map((n) => `  ${n}`),
    '',
  ];
  for (const [series, line] of protocol.scope ?? []) lines.push(`  scope (${series}): ${line}`);
  if (protocol.scope?.size) lines.push('');
  for (const hk of HEADLINE_KS) {
    for (const c of recallTable(evaluation, hk).filter(isWholeSeries)) {
      lines.push(
        `recall@${hk}  ${c.series.padEnd(14)} ${formatPercent(c.recall).padStart(6)} ` +
          `${formatPercentInterval(c.interval)}  (${formatHits(c)}; ${intervalNote(c)})`,
      );
    }
  }
  lines.push('', `by group, recall@${k} [95% interval]:`);
  for (const c of recallTable(evaluation, k)) {
    const label = c.group === null ? c.series : `${c.series} / ${c.group}`;
    lines.push(
      `  ${label.padEnd(44)} ${formatPercent(c.recall).padStart(6)} ` +
        `${formatPercentInterval(c.interval)}  (${formatHits(c)})`,
    );
  }
  lines.push('', 'target vs background scores [95% bootstrap over queries]:');
  for (const { series, stats, intervals } of separationTable(evaluation)) {
    lines.push(
      `  ${series.padEnd(14)} AUC ${formatScore(stats.auc)} ${formatScoreInterval(intervals?.auc ?? null)}  ` +
        `KS ${formatScore(stats.ks)} ${formatScoreInterval(intervals?.ks ?? null)}  ` +
        `mean ${formatScore(stats.target.mean)} vs ${formatScore(stats.background.mean)} ` +
        `(n ${stats.target.n} vs ${stats.background.n})`,
    );
  }
  if (comparisons.length > 0) lines.push('', 'paper vs ours:');
  for (const c of comparisons) lines.push(`  ${comparisonLine(c)}`);
  return lines;
}

/** Our number in the paper's unit: a percentage with one decimal, or a fraction with three. */
export function formatOurs(c: PaperComparison): string {
  if (c.ours === null) return '—';
  return c.paper.unit === '%' ? c.ours.toFixed(1) : c.ours.toFixed(3);
}

export function formatDifference(c: PaperComparison): string {
  if (c.difference === null) return '—';
  const digits = c.paper.unit === '%' ? 1 : 3;
  // A float residue like -1e-14 must print as +0.0, not -0.0.
  const d = Math.abs(c.difference) < 0.5 * 10 ** -digits ? 0 : c.difference;
  return `${d >= 0 ? '+' : ''}${d.toFixed(digits)}`;
}

/** Our interval in the paper's unit: "[44.9, 62.1]" for percentages, three decimals otherwise. */
export function formatOursInterval(c: PaperComparison): string {
  if (c.oursInterval === null) return '';
  const digits = c.paper.unit === '%' ? 1 : 3;
  return `[${c.oursInterval.lo.toFixed(digits)}, ${c.oursInterval.hi.toFixed(digits)}]`;
}

export function comparisonLine(c: PaperComparison): string {
  const paperCi = c.paperInterval ? ` (${c.paperInterval})` : '';
  const head = `${c.paper.row} · ${c.paper.column}: paper ${c.paper.value_text}${paperCi}`;
  const ours = c.ours === null ? '' : `, ours ${formatOurs(c)} ${formatOursInterval(c)}`;
  if (c.comparability === 'exact') {
    return `${head}${ours}, difference ${formatDifference(c)} [exact]`;
  }
  return `${head}${ours} [${c.comparability}: ${c.differs}]`;
}

export interface QueryRowView {
  query_id: string;
  series: string;
  /** Null: the query is in no group. */
  group: string | null;
  query: string;
  target_rank: number | null;
  target_score: number | null;
  recall_at_k: number;
  gold: number;
  corpus_size: number;
}

/** Best (lowest) target rank first; queries without any target doc last. */
export function queryRows(evaluation: Evaluation, k: number): QueryRowView[] {
  const rows = evaluation.outcomes.map((o) => ({
    query_id: o.query.id,
    series: o.query.series,
    group: o.query.group,
    query: o.query.text,
    target_rank: o.targetRank,
    target_score:
      o.bestTarget === null
        ? null
        : (o.targets.find((t) => t.index === o.bestTarget)?.score ?? null),
    recall_at_k: queryRecall(o, k),
    gold: o.goldRanks.length,
    corpus_size: o.corpusSize,
  }));
  return rows.sort(
    (a, b) =>
      (a.target_rank ?? Infinity) - (b.target_rank ?? Infinity) ||
      a.query_id.localeCompare(b.query_id),
  );
}

export function recallRowsAllK(evaluation: Evaluation): RecallCell[] {
  return Array.from({ length: evaluation.kMax }, (_, i) => recallTable(evaluation, i + 1)).flat();
}

/** "line 51 → 1, line 52 → 3, …": each query's best target rank, in the protocol's order. */
export function targetRankLine(evaluation: Evaluation, limit = 100): string {
  const shown = evaluation.outcomes
    .slice(0, limit)
    .map((o) => `${o.query.id} → ${o.targetRank ?? '—'}`);
  const more = evaluation.outcomes.length - shown.length;
  return `best target rank per query: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}
