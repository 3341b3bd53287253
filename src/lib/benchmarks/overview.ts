// The home page's overview chart: each paper's best "asked for" and "used" numbers, from the
// candidates its benchmark folder lists, in registry order.
import { defineChart, type ChartDef } from '../charts/chart-kit.ts';
import { overviewRow, overviewSpec, overviewSql, type OverviewPart } from '../charts/overview.ts';
import type { BenchmarkDef } from './benchmark-def.ts';
import { BENCHMARK_DEFS } from './registry.ts';

export function overviewParts(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): OverviewPart[] {
  return defs.flatMap((d) =>
    d.paper !== null && d.overview
      ? [{ paper: d.paper, label: d.label, candidates: d.overview }]
      : [],
  );
}

export const OVERVIEW_CHART: ChartDef = defineChart({
  id: 'overview-recall-vs-use',
  title: 'Recalled when asked, rarely used when needed: the best of each, per paper',
  source: 'Best row per paper and side, chosen by SQL over all four results CSVs',
  sql: overviewSql(overviewParts()),
  decode: overviewRow,
  spec: (rows) => overviewSpec(rows),
});
