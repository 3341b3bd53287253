// Each paper's page (its words and charts), from its benchmark folder or, for the papers not yet
// moved there, from charts/paper-charts.ts; in registry order.
import type { ChartDef } from '../charts/chart-kit.ts';
import { PAPER_CHARTS_HERE, PAPER_INFO_HERE, type PaperInfo } from '../charts/paper-charts.ts';
import { BENCHMARK_DEFS, PAPERS } from './registry.ts';

function resultsOf(paper: string) {
  return BENCHMARK_DEFS.find((d) => d.paper === paper)?.results;
}

export const PAPER_INFO: Readonly<Record<string, PaperInfo>> = Object.fromEntries(
  PAPERS.map((p) => [p, resultsOf(p)?.info ?? PAPER_INFO_HERE[p]]),
);

export const PAPER_CHARTS: Readonly<Record<string, ChartDef[]>> = Object.fromEntries(
  PAPERS.map((p) => [p, [...(resultsOf(p)?.charts ?? PAPER_CHARTS_HERE[p])]]),
);
