// Issue 23, item 3: a page loads only the tables it reads. #/inmind never fetches the conversation
// benchmarks; the console, reached in-page or by a link, waits for them and answers from them.
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { E2E_BASE } from '../../scripts/lib/site-build.ts';
import { INTERACTIVE_MARK } from '../../src/lib/app/load-marks.ts';
import { BENCHMARK_DEFS } from '../../src/lib/benchmarks/registry.ts';
import { sitePathOf, sourceById } from '../../src/lib/data/sources.ts';
import { formatHash } from '../../src/lib/common/url-state.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

/** The site paths of every file the 'benchmarks' phase reads (data/sources.json via the registry). */
function benchmarkFiles(phase: 'core' | 'benchmarks'): string[] {
  return BENCHMARK_DEFS.flatMap((d) =>
    d.dataset?.phase === phase ? d.dataset.sourceIds.map((id) => sitePathOf(sourceById(id))) : [],
  );
}

const COUNT_TURNS = 'SELECT count(*) AS n FROM turns';

afterEach(async () => {
  for (const { context, watch } of opened.splice(0)) {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await context.close().catch(() => undefined);
  }
});

/**
 * A new profile with service workers blocked: the offline precache fetches every file on install
 * (for offline use), which is not the page's own load this checks.
 */
async function freshPage(): Promise<{ page: Page; watch: PageWatch }> {
  const { context, page, watch } = await harness.tab({ serviceWorkers: 'block' });
  opened.push({ context, watch });
  return { page, watch };
}

/** The site paths among the page's requests that are one of `files`. */
function requested(watch: PageWatch, files: readonly string[]): string[] {
  const paths = watch.urls.map((u) => new URL(u).pathname.slice(E2E_BASE.length));
  return files.filter((f) => paths.includes(f));
}

async function consoleAnswer(page: Page): Promise<number> {
  const status = page.locator('[data-console-status]');
  await expect.poll(() => status.innerText(), { timeout: 180_000 }).toMatch(/^1 row · 1 column/);
  expect(await page.locator('[data-console-error]').count()).toBe(0);
  const cell = await page.locator('[data-result-grid] [data-row] td').nth(1).innerText();
  return Number(cell.replace(/[^0-9]/g, ''));
}

describe('tables per route', () => {
  it('#/inmind fetches no conversation benchmark; the console, reached in-page, loads and answers from them', async () => {
    const lazy = benchmarkFiles('benchmarks');
    expect(lazy).toContain('data/locomo/locomo10.json');
    const { page, watch } = await freshPage();
    await page.goto(`${harness.site.url}#/inmind`);
    await page.waitForFunction(
      (n) => performance.getEntriesByName(n, 'mark').length > 0,
      INTERACTIVE_MARK,
      {
        timeout: 120_000,
      },
    );
    // Shown once the start is over, where the benchmarks used to begin loading.
    const deferred = page.locator('[data-load-deferred="benchmarks"]');
    await deferred.waitFor({ timeout: 120_000 });
    expect(await deferred.innerText()).toBe(
      'Conversation benchmarks: loaded when a page needs them.',
    );
    expect(requested(watch, benchmarkFiles('core')).length).toBeGreaterThan(0);
    expect(requested(watch, lazy)).toEqual([]);
    expect(await page.locator('.loading').count()).toBe(0);
    expect(await page.locator('[data-app-error]').count()).toBe(0);
    expect(await page.locator('[data-sql-state]').getAttribute('data-sql-state')).toBe('ready');

    await page.locator('#site-nav').getByRole('link', { name: 'SQL' }).click();
    await page.locator('[data-schema-table="turns"]').waitFor({ timeout: 180_000 });
    await page.waitForSelector('[data-sql-state="ready"]', { timeout: 180_000 });
    expect(await deferred.count()).toBe(0);
    expect(requested(watch, lazy)).toContain('data/locomo/locomo10.json');

    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(COUNT_TURNS);
    await page.keyboard.press('Control+Enter');
    expect(await consoleAnswer(page)).toBeGreaterThan(5000);
    expect(await page.locator('[data-app-error]').count()).toBe(0);
  });

  it('a link straight to the console with a query on turns waits for them and answers', async () => {
    const { page } = await freshPage();
    const hash = formatHash({ page: 'console', params: { sql: COUNT_TURNS, run: '1' } });
    await page.goto(`${harness.site.url}${hash}`);
    expect(await consoleAnswer(page)).toBeGreaterThan(5000);
    expect(await page.locator('[data-load-deferred]').count()).toBe(0);
    expect(await page.locator('[data-app-error]').count()).toBe(0);
  });
});
