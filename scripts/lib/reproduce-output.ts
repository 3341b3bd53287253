/** What the reproduce CLI prints and writes: summary CSV/JSON, the output folder's files. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { rowsToCsv } from '../../src/lib/common/csv-export.ts';
import { recallCurveSpec } from '../../src/lib/charts/recall-curve.ts';
import { similarityHistogramSpec } from '../../src/lib/charts/similarity-histogram.ts';
import { choiceLabel, paperDefault } from '../../src/lib/protocols/defaults.ts';
import type { ReleaseComparison } from '../../src/lib/protocol-kit/locomo-plus-release.ts';
import { BM25_ID } from '../../src/lib/protocol-kit/pool.ts';
import { comparisonLine, recallRowsAllK } from '../../src/lib/protocol-kit/report.ts';
import { levelOf, recallTable, separationTable } from '../../src/lib/protocol-kit/summary.ts';
import { scoreTitle } from '../../src/lib/protocol-kit/labels.ts';
import type { CliRun, ReleaseRun } from './reproduce-run.ts';

export function releaseCsv(r: ReleaseComparison): string {
  return rowsToCsv(
    r.rows.map((row) => ({
      ...row,
      model: r.modelId,
      dtype: r.dtype,
      comparability: r.comparability,
    })),
  );
}

export async function writeReleaseOutputs(run: ReleaseRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'release.csv': releaseCsv(run.release),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}

/** paper.csv's rows: every paper number beside ours, with its comparability. */
export function paperCsvRows(run: CliRun): Record<string, string | number | boolean | null>[] {
  return run.figures.paper.map((c) => ({
    paper: c.paper.paper,
    table: c.paper.table,
    row: c.paper.row,
    column: c.paper.column,
    paper_value: c.paper.value_text,
    paper_interval: c.paperInterval,
    series: c.series,
    ours: c.ours,
    ours_lo: c.oursInterval?.lo ?? null,
    ours_hi: c.oursInterval?.hi ?? null,
    comparability: c.comparability,
    difference: c.difference,
    differs: c.differs,
  }));
}

/** One long table for `--format csv`: every recall cell, AUC/KS and paper row, each with its interval. */
export function summaryCsv(run: CliRun): string {
  const { evaluation, k } = run;
  const recall = recallTable(evaluation, k).map((c) => ({
    kind: `recall@${k}`,
    series: c.series,
    level: levelOf(c),
    group: c.group,
    value: c.recall,
    lo: c.interval?.lo ?? null,
    hi: c.interval?.hi ?? null,
    interval: c.method,
    n: c.queries,
    paper_value: null,
    comparability: null,
    differs: null,
  }));
  const separation = separationTable(evaluation).flatMap(({ series, stats, intervals }) =>
    (['auc', 'ks'] as const).map((m) => ({
      kind: m,
      series,
      level: 'series',
      group: null,
      value: stats[m],
      lo: intervals?.[m].lo ?? null,
      hi: intervals?.[m].hi ?? null,
      interval: 'bootstrap',
      n: stats.target.n,
      paper_value: null,
      comparability: null,
      differs: null,
    })),
  );
  const paper = run.figures.paper.map((c) => ({
    kind: `paper: ${c.paper.table} · ${c.paper.row} · ${c.paper.column}`,
    series: c.series,
    level: 'series',
    group: null,
    value: c.ours,
    lo: c.oursInterval?.lo ?? null,
    hi: c.oursInterval?.hi ?? null,
    interval: c.oursInterval ? (c.paper.unit === '%' ? 'percent' : 'fraction') : null,
    n: null,
    paper_value: c.paper.value,
    comparability: c.comparability,
    differs: c.differs,
  }));
  return rowsToCsv([...recall, ...separation, ...paper]);
}

/** `--format json`: the same numbers as the table, structured. */
export function summaryJson(run: CliRun): string {
  const { evaluation, k, protocol } = run;
  return JSON.stringify(
    {
      benchmark: protocol.benchmark,
      source: paperDefault(protocol.benchmark).source,
      retriever: evaluation.retrieverId,
      retriever_choice: choiceLabel(protocol.benchmark, evaluation.retrieverId),
      k,
      notes: protocol.notes,
      scope: Object.fromEntries(protocol.scope ?? []),
      recall: recallTable(evaluation, k),
      separation: separationTable(evaluation).map(({ series, stats, intervals }) => ({
        series,
        auc: stats.auc,
        ks: stats.ks,
        intervals,
        target_n: stats.target.n,
        background_n: stats.background.n,
      })),
      paper: paperCsvRows(run).map((row, i) => ({
        ...row,
        line: comparisonLine(run.figures.paper[i]),
      })),
    },
    null,
    2,
  );
}

export function releaseJson(run: ReleaseRun): string {
  return JSON.stringify(run.release, null, 2);
}

export async function writeOutputs(run: CliRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { figures, evaluation } = run;
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'recall.csv': rowsToCsv(
      recallRowsAllK(evaluation).map(({ interval, series, group, partialCredit: _, ...c }) => ({
        series,
        level: levelOf({ group }),
        group,
        ...c,
        lo: interval?.lo ?? null,
        hi: interval?.hi ?? null,
      })),
    ),
    'queries.csv': rowsToCsv(figures.queries.map((q) => ({ ...q }))),
    'separation.csv': rowsToCsv(
      figures.separation.map(({ series, stats, intervals }) => ({
        series,
        auc: stats.auc,
        auc_lo: intervals?.auc.lo ?? null,
        auc_hi: intervals?.auc.hi ?? null,
        ks: stats.ks,
        ks_lo: intervals?.ks.lo ?? null,
        ks_hi: intervals?.ks.hi ?? null,
        target_n: stats.target.n,
        target_mean: stats.target.mean,
        target_median: stats.target.median,
        background_n: stats.background.n,
        background_mean: stats.background.mean,
        background_median: stats.background.median,
      })),
    ),
    'histogram.csv': rowsToCsv(figures.histogram.map((b) => ({ ...b }))),
    'paper.csv': rowsToCsv(paperCsvRows(run)),
    'similarity.vl.json': JSON.stringify(
      similarityHistogramSpec(figures.histogram, scoreTitle(evaluation.retrieverId)),
      null,
      2,
    ),
    'recall-curve.vl.json': JSON.stringify(recallCurveSpec(figures.curves, run.k), null, 2),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}

export function printRecompute(opts: { retriever: string }, seconds: readonly number[]): void {
  if (seconds.length === 0) return;
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `\nrecompute every figure from cached ${opts.retriever === BM25_ID ? 'tokens' : 'vectors'}: ` +
      `median ${median.toFixed(3)} s, max ${sorted[sorted.length - 1].toFixed(3)} s over ${sorted.length} runs`,
  );
}
