// The budgets in budgets.json, checked on every `npm test`: deterministic figures only (sizes and
// counts); the timings stay in `npm run bench:load`.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/lib/site-build.ts';
import {
  firstChartFetches,
  holdDuckDbWorker,
  initialJs,
  readBudgets,
  type LoadBudgets,
} from '../../scripts/lib/load-budget.ts';
import { useHarness } from './harness.ts';

let root: string;
const harness = useHarness({ site: 'plain' });
let budgets: LoadBudgets;

beforeAll(async () => {
  budgets = await readBudgets();
  root = await buildSite();
});

const kib = (bytes: number) => bytes / 1024;

describe('load budgets (budgets.json)', () => {
  it('keeps the initial JS (entry + modulepreloads, gzip) within budget', async () => {
    const js = await initialJs(root);
    console.info(
      `initial JS ${kib(js.gzip).toFixed(1)} KiB gzip (budget ${budgets.initialJsGzipKiB}): ${js.files.join(', ')}`,
    );
    expect(js.files.length).toBeGreaterThan(0);
    expect(kib(js.gzip)).toBeLessThanOrEqual(budgets.initialJsGzipKiB);
  });

  it('draws the first chart of #/inmind within the request and byte budgets, DuckDB held back', async () => {
    const context = await harness.context({ serviceWorkers: 'block' });
    const release = await holdDuckDbWorker(context);
    const { page, watch } = await harness.tab({ context });
    try {
      const fetched = await firstChartFetches(page, `${harness.site.url}#/inmind`);
      console.info(
        `before the first chart: ${fetched.paths.length} requests (budget ${budgets.requestsBeforeFirstChart}), ` +
          `${kib(fetched.bytes).toFixed(1)} KiB (budget ${budgets.bytesBeforeFirstChartKiB}):\n  ${fetched.paths.join('\n  ')}`,
      );
      expect(fetched.paths.length).toBeLessThanOrEqual(budgets.requestsBeforeFirstChart);
      expect(kib(fetched.bytes)).toBeLessThanOrEqual(budgets.bytesBeforeFirstChartKiB);
      expect(fetched.paths.some((p) => p.includes('duckdb'))).toBe(false);
      expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    } finally {
      release();
      await context.close();
    }
  });
});
