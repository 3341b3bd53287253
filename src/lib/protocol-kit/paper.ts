import type { SqlRow } from '../db/engine.ts';
import type { Evaluation } from './evaluate.ts';
import { isWholeSeries, recallTable } from './summary.ts';
import type { Interval } from '../analysis/intervals.ts';

export interface PaperRow {
  paper: string;
  table: string;
  row: string;
  column: string;
  value: number;
  value_text: string;
  unit: string;
  system: string;
  variant: string;
  metric: string;
  source_line: number;
}

function text(row: SqlRow, key: string): string {
  const v = row[key];
  return v === null || v === undefined ? '' : String(v);
}

/** One row of `results` as the comparison reads it (the decoder of `paperRowsQuery`). */
export function paperRow(r: SqlRow): PaperRow {
  return {
    paper: text(r, 'paper'),
    table: text(r, 'table'),
    row: text(r, 'row'),
    column: text(r, 'column'),
    value: Number(r.value),
    value_text: text(r, 'value_text'),
    unit: text(r, 'unit'),
    system: text(r, 'system'),
    variant: text(r, 'variant'),
    metric: text(r, 'metric'),
    source_line: Number(r.source_line),
  };
}

export function paperRows(rows: readonly SqlRow[]): PaperRow[] {
  return rows.map(paperRow);
}

/**
 * `exact`: same metric, same scope, same model and k, so a difference means something;
 * `proxy`: our number stands in for a metric the paper computed otherwise (an LLM judge);
 * `other scope`: same metric on another pool, model, weights or k.
 */
export const COMPARABILITY = ['exact', 'proxy', 'other scope'] as const;
export type Comparability = (typeof COMPARABILITY)[number];

export interface PaperTarget {
  series: string;
  retriever: string;
  retrieverLabel: string;
  /** The k the paper's system retrieved. */
  k: number;
  /** When the paper's metric is not rank-based recall: what it is instead, in one clause. */
  judged: string | null;
  /** An interval the paper itself prints for this number, as it prints it. */
  paperInterval: string | null;
}

/** Which of our series and retrievers a paper row stands for; null for a row that is not ours. */
export type PaperTargetOf = (row: PaperRow) => PaperTarget | null;

export interface PaperComparison {
  paper: PaperRow;
  series: string;
  /** Our number in the paper's unit (% → ×100), at the page's k; null for another retriever. */
  ours: number | null;
  /** 95% interval of `ours`, in the paper's unit. */
  oursInterval: Interval | null;
  /** ours − paper, only when `comparability` is `exact`. */
  difference: number | null;
  comparability: Comparability;
  /** What differs from the paper, in one line; empty for `exact`. */
  differs: string;
  /** The paper's own interval for its number, as printed; null when it prints none. */
  paperInterval: string | null;
  sameRetriever: boolean;
  sameK: boolean;
  /** The k the paper's system retrieved. */
  paperK: number;
}

export interface ComparisonContext {
  /** The dense model's weights (fp32 is the reference implementation's). */
  dtype?: string;
}

/** A fraction in the paper's unit: × 100 for '%'. */
export function inPaperUnit(value: number, unit: string): number {
  return unit === '%' ? value * 100 : value;
}

/** What one of our numbers is, for judging it against a paper's. */
export interface OursDescription {
  retrieverId: string;
  retrieverLabel: string;
  k: number;
  /** What of the paper's pool the series had; null when the whole of it. */
  scope: string | null;
  /** The dense model's weights; '' or 'fp32' for the reference implementation's (and BM25). */
  dtype: string;
}

export interface Judgement {
  comparability: Comparability;
  /** What differs from the paper, in one line; empty for `exact`. */
  differs: string;
  sameRetriever: boolean;
  sameK: boolean;
}

/** The one rule behind every paper-vs-ours label: the page's table and the `paper_vs_ours` table. */
export function judge(target: PaperTarget, ours: OursDescription): Judgement {
  const sameRetriever = target.retriever === ours.retrieverId;
  const sameK = target.k === ours.k;
  const differences = [
    target.judged === null ? null : `${target.judged}; ours is rank-based recall@${ours.k}`,
    sameRetriever
      ? null
      : `paper's retriever ${target.retrieverLabel}, ours ${ours.retrieverLabel}`,
    sameK ? null : `paper's k = ${target.k}, ours ${ours.k}`,
    ours.scope,
    sameRetriever && ours.retrieverId !== 'bm25' && ours.dtype !== '' && ours.dtype !== 'fp32'
      ? `${ours.dtype} weights, not fp32`
      : null,
  ].filter((d): d is string => d !== null && d !== '');
  const comparability: Comparability =
    target.judged !== null ? 'proxy' : differences.length > 0 ? 'other scope' : 'exact';
  return { comparability, differs: differences.join('; '), sameRetriever, sameK };
}

export function comparePaper(
  evaluation: Evaluation,
  rows: readonly PaperRow[],
  k: number,
  targetOf: PaperTargetOf,
  context: ComparisonContext = {},
): PaperComparison[] {
  const overall = new Map(
    recallTable(evaluation, k)
      .filter(isWholeSeries)
      .map((c) => [c.series, c]),
  );
  const scope = evaluation.protocol.scope ?? new Map<string, string>();
  return rows.flatMap((paper) => {
    const target = targetOf(paper);
    if (!target) return [];
    const cell = overall.get(target.series);
    const { comparability, differs, sameRetriever, sameK } = judge(target, {
      retrieverId: evaluation.retrieverId,
      retrieverLabel: evaluation.retrieverLabel,
      k,
      scope: scope.get(target.series) ?? null,
      dtype: context.dtype ?? 'fp32',
    });
    const recall = sameRetriever ? (cell?.recall ?? null) : null;
    const ours = recall === null ? null : inPaperUnit(recall, paper.unit);
    const interval = sameRetriever ? (cell?.interval ?? null) : null;
    return [
      {
        paper,
        series: target.series,
        ours,
        oursInterval: interval && {
          lo: inPaperUnit(interval.lo, paper.unit),
          hi: inPaperUnit(interval.hi, paper.unit),
        },
        difference: comparability === 'exact' && ours !== null ? ours - paper.value : null,
        comparability,
        differs,
        paperInterval: target.paperInterval,
        sameRetriever,
        sameK,
        paperK: target.k,
      },
    ];
  });
}
