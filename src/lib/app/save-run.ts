// "Save as a table" on Reproduce: its own module, so that the first screen does not load the
// protocol kit it needs (user-table-commands is on the start path).
import type { ModelRef } from '../embed/model-ref.ts';
import { publishedModelName } from '../embed/model-registry.ts';
import type { Evaluation } from '../protocol-kit/evaluate.ts';
import type { PaperComparison } from '../protocol-kit/paper.ts';
import { isWholeSeries, recallTable } from '../protocol-kit/summary.ts';
import { browserRunRows, runTableName } from '../results/paper-vs-ours.ts';
import { catalogOf, type TableServices } from './user-table-commands.ts';

/** A Reproduce run as it stands on the page: what `saveRunTable` writes. */
export interface PageRun {
  evaluation: Evaluation;
  comparisons: readonly PaperComparison[];
  k: number;
  /** Null for BM25. */
  model: ModelRef | null;
}

/**
 * "Save as a table": the run's paper comparison as a DuckDB table of `paper_vs_ours`'s shape
 * (`command = 'browser'`), replacing the same run saved before; returns the table's name.
 */
export async function saveRunTable(services: TableServices, run: PageRun): Promise<string> {
  const { evaluation, k, model } = run;
  const described = {
    benchmark: evaluation.protocol.benchmark,
    retrieverId: evaluation.retrieverId,
    retrieverLabel: evaluation.retrieverLabel,
    k,
    model: publishedModelName(model?.spec ?? null),
    dtype: model?.dtype ?? '',
    revision: model?.revision ?? '',
    queries: new Map(
      recallTable(evaluation, k)
        .filter(isWholeSeries)
        .map((c) => [c.series, c.queries]),
    ),
  };
  const rows = browserRunRows(run.comparisons, described);
  const table = runTableName(described);
  try {
    await catalogOf(services).loadRows(table, rows, `Reproduce: ${evaluation.retrieverLabel}`);
    return table;
  } finally {
    services.dataChanged();
  }
}
