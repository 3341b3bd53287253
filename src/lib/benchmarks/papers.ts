// Each paper's page (its words and charts), from its benchmark folder or, for the papers not yet
// moved there, from charts/paper-charts.ts; in registry order.
import type { ChartDef } from '../charts/chart-kit.ts';
import { PAPER_CHARTS_HERE, PAPER_INFO_HERE, type PaperInfo } from '../charts/paper-charts.ts';
import type { BenchmarkDef } from './benchmark-def.ts';
import { BENCHMARK_DEFS } from './registry.ts';

/** Paper id → its page's words and charts, for every benchmark that names a paper. */
export function paperPages(
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): Readonly<Record<string, { info: PaperInfo; charts: ChartDef[] }>> {
  return Object.fromEntries(
    defs.flatMap((d) =>
      d.paper === null
        ? []
        : [
            [
              d.paper,
              {
                info: d.results?.info ?? PAPER_INFO_HERE[d.paper],
                charts: [...(d.results?.charts ?? PAPER_CHARTS_HERE[d.paper])],
              },
            ],
          ],
    ),
  );
}

const PAGES = paperPages();

export const PAPER_INFO: Readonly<Record<string, PaperInfo>> = Object.fromEntries(
  Object.entries(PAGES).map(([p, page]) => [p, page.info]),
);

export const PAPER_CHARTS: Readonly<Record<string, ChartDef[]>> = Object.fromEntries(
  Object.entries(PAGES).map(([p, page]) => [p, page.charts]),
);
