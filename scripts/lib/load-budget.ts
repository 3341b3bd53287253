// The load budgets in budgets.json and the deterministic figures they bound: the initial JS
// (the entry module and its modulepreloads, gzip level 9), and what the page fetches before its
// first chart while DuckDB's worker is held back (DuckDB is never needed for the first chart).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { repoRoot } from './site-build.ts';
import { FIRST_CHART_MARK } from '../../src/lib/app/load-marks.ts';

export interface LoadBudgets {
  initialJsGzipKiB: number;
  requestsBeforeFirstChart: number;
  bytesBeforeFirstChartKiB: number;
}

export const BUDGETS_FILE = path.join(repoRoot, 'budgets.json');

function positive(value: unknown, key: string, file: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${file}: "${key}" must be a positive number, got ${JSON.stringify(value)}`);
  }
  return value;
}

export async function readBudgets(file = BUDGETS_FILE): Promise<LoadBudgets> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${file}: not an object`);
  const fields = new Map(Object.entries(parsed));
  const get = (key: keyof LoadBudgets) => positive(fields.get(key), key, file);
  return {
    initialJsGzipKiB: get('initialJsGzipKiB'),
    requestsBeforeFirstChart: get('requestsBeforeFirstChart'),
    bytesBeforeFirstChartKiB: get('bytesBeforeFirstChartKiB'),
  };
}

export interface InitialJs {
  files: string[];
  raw: number;
  gzip: number;
}

/** Scripts the browser must fetch before anything runs: the entry module and its modulepreloads. */
export async function initialJs(root: string): Promise<InitialJs> {
  const html = await readFile(path.join(root, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+\.js)"/g)].map(
    (m) => m[1],
  );
  const out: InitialJs = { files: [], raw: 0, gzip: 0 };
  for (const ref of refs) {
    const rel = ref.replace(/^\/[^/]+\//, '').replace(/^\.\//, '');
    const bytes = await readFile(path.join(root, rel));
    out.raw += bytes.length;
    out.gzip += gzipSync(bytes, { level: 9 }).length;
    out.files.push(rel);
  }
  return out;
}

export interface FirstChartFetches {
  /** Same-origin paths fetched (document included), in start order. */
  paths: string[];
  /** Body bytes of those responses as sent (the test server does not compress). */
  bytes: number;
}

/**
 * Holds DuckDB's start until the returned function is called: the build manifest whose digests
 * DuckDB's files are checked against before they run (issue 21), and DuckDB's worker script.
 */
export async function holdDuckDbWorker(context: BrowserContext): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(
    /(duckdb-browser-(eh|mvp)\.worker[^/]*\.js|precache-manifest\.json)$/,
    async (route: Route) => {
      await released;
      await route.continue().catch(() => undefined);
    },
  );
  return release;
}

/**
 * Loads `url` in `page` (a fresh context, service workers blocked, DuckDB held) and lists what
 * the page started fetching before its first chart's mark: the document and every resource.
 * It waits `settleMs` after the mark so that those requests have ended (the held one never does).
 */
export async function firstChartFetches(
  page: Page,
  url: string,
  settleMs = 1500,
): Promise<FirstChartFetches> {
  await page.goto(url);
  await page.waitForFunction(
    (n) => performance.getEntriesByName(n, 'mark').length > 0,
    FIRST_CHART_MARK,
    { timeout: 120_000 },
  );
  await page.waitForTimeout(settleMs);
  return page.evaluate((mark) => {
    const at = performance.getEntriesByName(mark, 'mark')[0].startTime;
    const started = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ]
      .filter((e): e is PerformanceResourceTiming => e instanceof PerformanceResourceTiming)
      .filter((e) => e.startTime <= at)
      .sort((x, y) => x.startTime - y.startTime);
    return {
      paths: started.map((e) => new URL(e.name).pathname),
      bytes: started.reduce((sum, e) => sum + e.encodedBodySize, 0),
    };
  }, FIRST_CHART_MARK);
}
