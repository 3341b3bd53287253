import type { Evaluation } from './evaluate.ts';
import {
  comparePaper,
  type ComparisonContext,
  type PaperComparison,
  type PaperRow,
  type PaperTargetOf,
} from './paper.ts';
import { queryRows, type QueryRowView } from './report.ts';
import {
  recallCurves,
  recallTable,
  separationTable,
  similarityHistogram,
  type CurvePoint,
  type HistogramBin,
  type RecallCell,
  type SeparationRow,
} from './summary.ts';

/** Everything the Reproduce page draws for one evaluation and k. */
export interface Figures {
  k: number;
  recall: RecallCell[];
  curves: CurvePoint[];
  separation: SeparationRow[];
  histogram: HistogramBin[];
  queries: QueryRowView[];
  paper: PaperComparison[];
}

export function figuresOf(
  evaluation: Evaluation,
  k: number,
  paper: readonly PaperRow[],
  targetOf: PaperTargetOf,
  context: ComparisonContext = {},
): Figures {
  return {
    k,
    recall: recallTable(evaluation, k),
    curves: recallCurves(evaluation),
    separation: separationTable(evaluation),
    histogram: similarityHistogram(evaluation),
    queries: queryRows(evaluation, k),
    paper: comparePaper(evaluation, paper, k, targetOf, context),
  };
}
