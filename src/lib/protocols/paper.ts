import type { SqlRow } from '../db/engine.ts';
import type { Evaluation } from './evaluate.ts';
import { ALL, recallTable } from './summary.ts';
import type { BenchmarkId } from './types.ts';

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

export function paperRows(rows: readonly SqlRow[]): PaperRow[] {
  return rows.map((r) => ({
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
  }));
}

interface PaperTarget {
  series: string;
  retriever: string;
  /** The k the paper's system retrieved. */
  k: number;
}

/** Which of our series and retrievers a paper row corresponds to, if any. */
function targetOf(benchmark: BenchmarkId, row: PaperRow): PaperTarget | null {
  if (benchmark === 'inmind' && row.paper === 'inmind') {
    const series = row.metric === 'naive' ? 'naive' : 'indirect';
    const retriever =
      row.system === 'BM25' ? 'bm25' : row.variant === 'MiniLM' ? 'minilm' : row.variant;
    return { series, retriever, k: 5 };
  }
  if (benchmark === 'locomo-conv' && row.paper === 'locomo-conv') {
    return { series: row.variant, retriever: 'minilm', k: 10 };
  }
  return null;
}

export interface PaperComparison {
  paper: PaperRow;
  series: string;
  /** Our number in the paper's unit (% → ×100), at the page's k; null without that series. */
  ours: number | null;
  /** ours − paper, only when retriever and k are the paper's. */
  difference: number | null;
  sameRetriever: boolean;
  sameK: boolean;
}

export function comparePaper(
  evaluation: Evaluation,
  rows: readonly PaperRow[],
  k: number,
): PaperComparison[] {
  const overall = new Map(
    recallTable(evaluation, k)
      .filter((c) => c.group === ALL)
      .map((c) => [c.series, c.recall]),
  );
  return rows.flatMap((paper) => {
    const target = targetOf(evaluation.protocol.benchmark, paper);
    if (!target) return [];
    const recall = overall.get(target.series) ?? null;
    const ours = recall === null ? null : paper.unit === '%' ? recall * 100 : recall;
    const sameRetriever = target.retriever === evaluation.retrieverId;
    const sameK = target.k === k;
    const difference = ours !== null && sameRetriever && sameK ? ours - paper.value : null;
    return [{ paper, series: target.series, ours, difference, sameRetriever, sameK }];
  });
}
