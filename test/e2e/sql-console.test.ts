// The SQL console in Chromium: a query typed by keyboard runs with Ctrl+Enter, a syntax error is
// marked where DuckDB points, results export, a copied link reproduces the result, a long query
// is cancelled without restarting DuckDB, and a chart's "Open in SQL console" lands with its SQL.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parquetReadObjects } from 'hyparquet';
import { launchChromium, watchPage, type PageWatch } from '../../scripts/lib/chromium.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import { seriousViolations } from './axe.ts';
import { resizedTo } from '../support/page-state.ts';

let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const watches: PageWatch[] = [];

const DOMAINS = 'SELECT domain, count(*) AS n FROM inmind_tasks GROUP BY domain ORDER BY domain';

beforeAll(async () => {
  server = await serveStatic({ root: await buildSite(), base: E2E_BASE });
  browser = await launchChromium();
  context = await browser.newContext({
    permissions: ['clipboard-read', 'clipboard-write'],
    viewport: { width: 1280, height: 900 },
  });
  page = await open(context, `${server.url}#/console`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(ctx: BrowserContext, url: string): Promise<Page> {
  const p = await ctx.newPage();
  watches.push(watchPage(p));
  await p.goto(url);
  await p.waitForSelector('[data-sql-state="ready"]', { timeout: 120_000 });
  return p;
}

const status = (p: Page) => p.locator('[data-console-status]');
const editor = (p: Page) => p.getByRole('textbox', { name: 'SQL query' });

/** Replaces the editor's text by typing, as a reader would. */
async function typeQuery(p: Page, sql: string): Promise<void> {
  await editor(p).click();
  await p.keyboard.press('Control+A');
  await p.keyboard.press('Delete');
  await p.keyboard.type(sql);
}

async function runTyped(p: Page, sql: string): Promise<void> {
  await typeQuery(p, sql);
  await p.keyboard.press('Control+Enter');
}

describe('the SQL console', () => {
  it('completes table names and runs a typed query with Ctrl+Enter, with DuckDB types', async () => {
    await typeQuery(page, 'SELECT domain, count(*) AS n FROM inmind_ta');
    await page
      .locator('.cm-tooltip-autocomplete')
      .getByText('inmind_tasks', { exact: true })
      .waitFor();
    await page.keyboard.type('sks GROUP BY domain ORDER BY domain');
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(() => status(page).innerText(), { timeout: 30_000 })
      .toMatch(/^10 rows · 2 columns · \d+ ms$/);
    const header = await page.locator('[data-result-grid] thead th').allInnerTexts();
    expect(header.map((h) => h.replace(/\s+/g, ' ').trim())).toEqual([
      '#',
      'domain VARCHAR',
      'n BIGINT',
    ]);
    expect(await page.locator('[data-result-grid] [data-row]').count()).toBe(10);
    const [where, query] = new URL(page.url()).hash.split('?');
    expect(where).toBe('#/console');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({ run: '1', sql: DOMAINS });
    await expect
      .poll(() => page.locator('[data-console-history] li').first().innerText())
      .toContain('SELECT domain');
  });

  it('marks a syntax error where DuckDB points and names line and column', async () => {
    await runTyped(page, 'SELECT 1\nFORM inmind_tasks');
    const error = page.locator('[data-console-error]');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.innerText()).toMatch(
      /Error at line 2, column 6[\s\S]*Parser Error: syntax error/,
    );
    await expect.poll(() => page.locator('.cm-lintRange-error').innerText()).toBe('inmind_tasks');
  });

  it('exports the result as CSV and as Parquet', async () => {
    await runTyped(page, DOMAINS);
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^10 rows/);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV' }).click(),
    ]);
    const text = await readFile(await csv.path(), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('domain,n');
    expect(lines).toHaveLength(11);
    expect(lines.slice(1).reduce((sum, l) => sum + Number(l.split(',').at(-1)), 0)).toBe(125);
    const [parquet] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Parquet' }).click(),
    ]);
    const bytes = await readFile(await parquet.path());
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    });
    expect(rows).toHaveLength(10);
    expect(rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(125);
  });

  it('reproduces query and result from a copied link in a fresh page', async () => {
    await page.locator('[data-copy-link]').click();
    await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const fresh = await open(await browser.newContext(), link);
    await expect.poll(() => status(fresh).innerText(), { timeout: 60_000 }).toMatch(/^10 rows/);
    expect(await editor(fresh).innerText()).toBe(DOMAINS);
    const cells = (p: Page) => p.locator('[data-result-grid] tbody').innerText();
    expect(await cells(fresh)).toBe(await cells(page));
    await fresh.context().close();
  });

  it('keeps the history over a reload, steps back and forward through runs, inserts names', async () => {
    await runTyped(page, 'SELECT 7 AS seven');
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^1 row ·/);
    await page.goBack();
    await expect.poll(() => editor(page).innerText()).toBe(DOMAINS);
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^10 rows/);
    await page.goForward();
    await expect.poll(() => editor(page).innerText()).toBe('SELECT 7 AS seven');
    // Stepping forward runs the query again; the history keeps a run once it has ended.
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^1 row ·/);
    await page.reload();
    await page.waitForSelector('[data-sql-state="ready"]', { timeout: 120_000 });
    const history = page.locator('[data-console-history] li');
    expect(await history.first().innerText()).toContain('SELECT 7 AS seven');
    await history.filter({ hasText: 'SELECT domain' }).getByRole('button').click();
    await expect.poll(() => editor(page).innerText()).toBe(DOMAINS);
    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' -- ');
    const table = page.locator('[data-schema-table="inmind_tasks"]');
    await table.locator('summary').click();
    await table.getByRole('button', { name: 'Insert column relation (VARCHAR)' }).click();
    await expect.poll(() => editor(page).innerText()).toBe(`${DOMAINS} -- relation`);
    // Tab leaves the editor: it is no keyboard trap.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.closest('.cm-editor') ?? null),
    ).toBeNull();
  });

  it('keeps only the rows in view in the DOM for a 100,000-row result', async () => {
    await runTyped(page, 'SELECT i, i * 2 AS twice FROM range(100000) r(i)');
    await expect.poll(() => status(page).innerText(), { timeout: 60_000 }).toMatch(/^100,000 rows/);
    const drawn = page.locator('[data-result-grid] [data-row]');
    expect(await drawn.count()).toBeLessThan(60);
    await page
      .getByRole('region', { name: 'Query result' })
      .evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.locator('[data-result-grid] [data-row]', { hasText: '199998' }).waitFor();
    expect(await drawn.count()).toBeLessThan(60);
  });

  it('cancels a long query with Escape, and DuckDB keeps its tables', async () => {
    await runTyped(page, 'SELECT count(*) FROM range(10000000000)');
    // At once: an Escape before the statement reaches DuckDB (the tables still being listed, the
    // text being prepared) cancels the run as surely as one while DuckDB runs it.
    await expect.poll(() => status(page).innerText()).toMatch(/^Running/);
    await page.keyboard.press('Escape');
    const error = page.locator('[data-console-error]');
    await error.waitFor({ timeout: 20_000 });
    expect(await error.innerText()).toMatch(/^Cancelled/);
    await runTyped(page, 'SELECT count(*) AS tasks FROM inmind_tasks');
    await expect
      .poll(() => page.locator('[data-result-grid] tbody').innerText(), { timeout: 30_000 })
      .toContain('125');
    expect(await page.locator('[data-engine-notice]').count()).toBe(0);
  });

  it("sets the papers' numbers beside ours with the paper's row and the values first", async () => {
    await page.click('[data-example="paper-vs-ours"]');
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^\d+ rows/);
    const header = await page.locator('[data-result-grid] thead th').allInnerTexts();
    expect(header.slice(1, 5).map((h) => h.split(/\s/)[0])).toEqual([
      'paper_row',
      'paper_value',
      'ours',
      'difference',
    ]);
    // Rows that set our retriever beside another system's are marked, and the example leaves
    // them out; a difference wherever both numbers exist.
    await runTyped(
      page,
      `SELECT count(*) FILTER (WHERE cross_system) AS cross_rows,
       count(*) FILTER (WHERE difference IS NULL AND ours_value IS NOT NULL) AS no_difference
FROM paper_vs_ours`,
    );
    await expect.poll(() => status(page).innerText(), { timeout: 30_000 }).toMatch(/^1 row/);
    const cells = await page.locator('[data-result-grid] [data-row] td').allInnerTexts();
    expect(Number(cells.at(-2))).toBeGreaterThan(0);
    expect(cells.at(-1)).toBe('0');
  });

  it('opens a chart’s SQL from Show data, and runs it', async () => {
    await page.evaluate(() => (location.hash = '#/inmind'));
    const chart = page.locator('[data-chart="inmind-table1"]');
    await chart.locator('.chart-canvas[data-rendered="true"]').waitFor({ timeout: 60_000 });
    const chartRows = Number(await chart.getAttribute('data-rows'));
    const chartSql = await chart.evaluate((el) => el.querySelector('pre.sql')?.textContent ?? '');
    await chart.getByRole('button', { name: 'Show data' }).click();
    const chartSqlShown = await chart.locator('pre.sql').innerText();
    await chart.getByRole('link', { name: 'Open in SQL console' }).click();
    await page.waitForURL(/#\/console\?run=1&sql=/);
    await expect
      .poll(() => status(page).innerText(), { timeout: 30_000 })
      .toMatch(new RegExp(`^${chartRows} rows?`));
    expect(await editor(page).innerText()).toBe(chartSqlShown);
    expect(chartSql === '' || chartSql === chartSqlShown).toBe(true);
  });

  it('does not scroll sideways at 390 px and has no serious axe violation', async () => {
    expect(await seriousViolations(page)).toEqual([]);
    await resizedTo(page, 390, 844);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('made no request outside the test server and logged no console error', () => {
    for (const w of watches) {
      expect(w.foreignRequests(server.origin)).toEqual([]);
      expect(w.consoleErrors).toEqual([]);
    }
  });
});
