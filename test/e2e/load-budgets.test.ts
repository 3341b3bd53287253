// The budgets in budgets.json, checked on every `npm test`: deterministic figures only (sizes and
// counts); the timings stay in `npm run bench:load`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, watchPage } from '../../scripts/lib/chromium.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import {
  firstChartFetches,
  holdDuckDbWorker,
  initialJs,
  readBudgets,
  type LoadBudgets,
} from '../../scripts/lib/load-budget.ts';

let root: string;
let server: StaticServer;
let browser: Browser;
let budgets: LoadBudgets;

beforeAll(async () => {
  budgets = await readBudgets();
  root = await buildSite();
  server = await serveStatic({ root, base: E2E_BASE });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
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
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const release = await holdDuckDbWorker(context);
    const page = await context.newPage();
    const watch = watchPage(page);
    try {
      const fetched = await firstChartFetches(page, `${server.url}#/inmind`);
      console.info(
        `before the first chart: ${fetched.paths.length} requests (budget ${budgets.requestsBeforeFirstChart}), ` +
          `${kib(fetched.bytes).toFixed(1)} KiB (budget ${budgets.bytesBeforeFirstChartKiB}):\n  ${fetched.paths.join('\n  ')}`,
      );
      expect(fetched.paths.length).toBeLessThanOrEqual(budgets.requestsBeforeFirstChart);
      expect(kib(fetched.bytes)).toBeLessThanOrEqual(budgets.bytesBeforeFirstChartKiB);
      expect(fetched.paths.some((p) => p.includes('duckdb'))).toBe(false);
      expect(watch.foreignRequests(server.origin)).toEqual([]);
    } finally {
      release();
      await context.close();
    }
  });
});
