import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import {
  DUCKDB_READY_MARK,
  FIRST_CHART_MARK,
  INTERACTIVE_MARK,
  type LoadMark,
} from '../../src/lib/app/load-marks.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });

const RENDERED = (id: string) => `[data-chart="${id}"] .chart-canvas[data-rendered="true"]`;

/** The page's own marks, by name; null where a mark has not happened. */
async function marks(page: Page): Promise<Record<LoadMark, number | null>> {
  return page.evaluate(
    (names) =>
      Object.fromEntries(
        names.map((n) => [n, performance.getEntriesByName(n, 'mark')[0]?.startTime ?? null]),
      ) as Record<LoadMark, number | null>,
    [FIRST_CHART_MARK, DUCKDB_READY_MARK, INTERACTIVE_MARK] as LoadMark[],
  );
}

async function waitForMark(page: Page, name: LoadMark): Promise<void> {
  await page.waitForFunction((n) => performance.getEntriesByName(n, 'mark').length > 0, name, {
    timeout: 120_000,
  });
}

/**
 * Holds DuckDB's worker script (the page's first request for DuckDB) until `release` is called, so
 * whatever renders meanwhile provably does not wait for DuckDB.
 */
async function holdDuckDb(context: BrowserContext): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(/duckdb-browser-eh\.worker[^/]*\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function freshPage(): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }> {
  return harness.tab({ serviceWorkers: 'block' });
}

describe('first chart before DuckDB', () => {
  it('draws InMind Table 1 from the snapshot while DuckDB is held, then lights SQL features up without a reload', async () => {
    const { context, page, watch } = await freshPage();
    const release = await holdDuckDb(context);
    await page.goto(`${harness.site.url}#/inmind`);
    await page.waitForSelector(RENDERED('inmind-table1'), { timeout: 60_000 });

    expect(
      await page.locator('figure[data-chart="inmind-table1"]').getAttribute('data-origin'),
    ).toBe('snapshot');
    expect(await page.locator('[data-sql-state]').getAttribute('data-sql-state')).toBe('starting');
    await expect.poll(() => page.locator('[data-sql-pending]').isVisible()).toBe(true);
    expect(await page.locator('.task-table').count()).toBe(0);
    const held = await marks(page);
    expect(held[FIRST_CHART_MARK]).not.toBeNull();
    expect(held[DUCKDB_READY_MARK]).toBeNull();

    // The embedding filter changes the query; its rows are in the snapshot too.
    await page.getByRole('radio', { name: 'MiniLM' }).check();
    await page.waitForFunction(() => location.hash.includes('emb=MiniLM'));
    await page.waitForSelector(RENDERED('inmind-table1'));
    await expect
      .poll(() => page.locator('[data-chart="inmind-table1"] .chart-title').textContent())
      .toContain('MiniLM');

    await page.evaluate(() => {
      (window as unknown as { memlensSentinel: number }).memlensSentinel = 1;
    });
    release();
    await waitForMark(page, INTERACTIVE_MARK);
    await page.waitForSelector('.task-table table tbody tr', { timeout: 60_000 });
    await page.waitForSelector(RENDERED('inmind-domains'), { timeout: 60_000 });
    expect(await page.locator('[data-sql-state]').getAttribute('data-sql-state')).toBe('ready');
    await expect
      .poll(() => page.locator('figure[data-chart="inmind-table1"]').getAttribute('data-origin'))
      .toBe('sql');
    expect(await page.locator('[data-sql-pending]').count()).toBe(0);

    const after = await marks(page);
    expect(after[FIRST_CHART_MARK]).toBe(held[FIRST_CHART_MARK]);
    expect(after[FIRST_CHART_MARK]!).toBeLessThan(after[DUCKDB_READY_MARK]!);
    expect(after[DUCKDB_READY_MARK]!).toBeLessThanOrEqual(after[INTERACTIVE_MARK]!);
    const sameDocument = await page.evaluate(
      () =>
        (window as unknown as { memlensSentinel?: number }).memlensSentinel === 1 &&
        performance.getEntriesByType('navigation').length === 1,
    );
    expect(sameDocument).toBe(true);
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await context.close();
  });

  it('renders the first chart of the Overview and of each paper page before DuckDB', async () => {
    const { context, page, watch } = await freshPage();
    const release = await holdDuckDb(context);
    const firsts: [string, string][] = [
      ['home', 'overview-recall-vs-use'],
      ['locomo-conv', 'locomo-table4-recall'],
      ['memuse', 'memuse-figure1'],
      ['utilmem', 'utilmem-systems'],
    ];
    await page.goto(`${harness.site.url}#/home`);
    for (const [route, chart] of firsts) {
      await page.evaluate((h) => (location.hash = h), `#/${route}`);
      await page.waitForSelector(RENDERED(chart), { timeout: 60_000 });
      expect(await page.locator(`figure[data-chart="${chart}"]`).getAttribute('data-origin')).toBe(
        'snapshot',
      );
    }
    expect((await marks(page))[DUCKDB_READY_MARK]).toBeNull();
    release();
    await waitForMark(page, INTERACTIVE_MARK);
    await expect
      .poll(() => page.locator('figure[data-chart="utilmem-systems"]').getAttribute('data-origin'))
      .toBe('sql');
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await context.close();
  });

  it('on an unhindered load, the first chart is marked before DuckDB is ready', async () => {
    const { context, page, watch } = await freshPage();
    await page.goto(`${harness.site.url}#/inmind`);
    await waitForMark(page, INTERACTIVE_MARK);
    const m = await marks(page);
    expect(m[FIRST_CHART_MARK]!).toBeLessThan(m[DUCKDB_READY_MARK]!);
    expect(m[DUCKDB_READY_MARK]!).toBeLessThanOrEqual(m[INTERACTIVE_MARK]!);
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    await context.close();
  });
});
