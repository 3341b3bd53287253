import { beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;

const GOOD = path.join(repoRoot, 'test/fixtures/userdata');
const BAD = path.join(repoRoot, 'test/fixtures/bad');

async function counts(): Promise<Record<string, string>> {
  return page.$$eval('[data-table-count]', (cells) =>
    Object.fromEntries(
      cells.map((c) => [c.getAttribute('data-table-count') ?? '', c.textContent ?? '']),
    ),
  );
}

async function pick(file: string) {
  await page.locator('input[type="file"]').setInputFiles(file);
}

async function loadGood(file: string, table: string) {
  await pick(file);
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(`[data-load-notice]:has-text("into ${table}.")`);
  await page.waitForSelector(`[data-table-count="${table}"]`);
}

async function noXss() {
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
  ).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator('main script').count()).toBe(0);
}

beforeAll(async () => {
  ({ page, watch } = await harness.open('#/mydata', {
    viewport: { width: 1400, height: 1000 },
    ready: '[data-table-count="turns"]',
    timeout: 180_000,
  }));
});

describe('Your data: loading files through the page', () => {
  it('loads a JSONL file through the suggested mapping', async () => {
    await pick(path.join(GOOD, 'records.jsonl'));
    await page.waitForSelector('#mapping-title:has-text("records.jsonl")');
    expect(await page.locator('select[data-role="query"]').inputValue()).toBe('["question"]');
    expect(await page.locator('select[data-role="gold"]').inputValue()).toBe('["answer"]');
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector(
      '[data-load-notice]:has-text("Loaded 5 rows from records.jsonl into user_records.")',
    );
    await page.waitForSelector('[data-table-count="user_records"]:has-text("5")');
  });

  it('loads a Parquet file (hyparquet, loaded on demand)', async () => {
    await pick(path.join(GOOD, 'records.parquet'));
    await page.waitForSelector('#mapping-title:has-text("records.parquet")');
    await page.getByLabel('Table name').fill('user_records_pq');
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector('[data-table-count="user_records_pq"]:has-text("5")');
  });

  it('reports a bad file by name and line and keeps every table, then loads a good one', async () => {
    const before = await counts();
    expect(before.turns).toBe('7342');

    await pick(path.join(BAD, 'malformed-line.jsonl'));
    const error = page.locator('[data-load-error]');
    await error.waitFor();
    expect(await error.innerText()).toContain('malformed-line.jsonl:3:31: expected valid JSON');
    expect(await page.locator('#mapping-title').count()).toBe(0);

    await pick(path.join(BAD, 'query-object.jsonl'));
    await page.waitForSelector('#mapping-title:has-text("query-object.jsonl")');
    await page.getByLabel('Table name').fill('user_records');
    // An existing name is replaced only once the reader ticks "Replace it".
    await page.locator('[data-replace-table] input').check();
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector(
      '[data-load-error]:has-text("query-object.jsonl:4 at question: expected a string or number (mapped as the query), found an object")',
    );
    await page.waitForFunction(
      () => document.querySelector('[data-user-table="user_records"]') !== null,
    );
    expect(await counts()).toEqual(before);

    await loadGood(path.join(GOOD, 'submission.jsonl'), 'user_submission');
    const after = await counts();
    expect(after.user_submission).toBe('7');
    for (const [table, rows] of Object.entries(before)) expect(after[table], table).toBe(rows);
  });

  it('recognises an InMind submission and reports context matches per domain', async () => {
    const all = page.locator('[data-domain-row="TestMem/All domains"] td');
    await all.first().waitFor();
    expect(await all.allInnerTexts()).toEqual([
      'TestMem',
      'All domains',
      '6',
      '50.0%',
      '83.3%',
      '16.7%',
      '33.3%',
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
    ]);
    const health = page.locator('[data-domain-row="TestMem/health_and_wellness"] td');
    expect((await health.allInnerTexts()).slice(2, 7)).toEqual([
      '2',
      '100.0%',
      '100.0%',
      '0.0%',
      '50.0%',
    ]);
    const task0 = page.locator('[data-task-row="TestMem/0"]');
    expect(await task0.innerText()).toContain('Consider hypoallergenic pets.');
    expect(await task0.innerText()).toContain('You have asthma.');
  });

  it('fetches a same-origin URL only when asked, and explains a remote one', async () => {
    const input = page.getByLabel('Or fetch a URL');
    await input.fill('https://example.org/run.jsonl');
    await page.waitForSelector('[data-url-kind="remote"]:has-text("example.org")');
    await input.fill('data/inmind/inmind_en.jsonl');
    await page.waitForSelector('[data-url-kind="same-origin"]');
    expect(watch.urls.some((u) => u.includes('example.org'))).toBe(false);
    await page.getByRole('button', { name: 'Fetch' }).click();
    await page.waitForSelector('#mapping-title:has-text("inmind_en.jsonl")');
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector('[data-table-count="user_inmind_en"]:has-text("125")');
  });

  it('renders markup in a user file as text, in the preview and in the conversation viewer', async () => {
    await loadGood(path.join(GOOD, 'xss.jsonl'), 'user_xss');
    const preview = page.locator('[data-preview="user_xss"]');
    await preview.waitFor();
    expect(await preview.innerText()).toContain('<script>window.__xss = 1</script>What is this?');
    expect(await preview.innerText()).toContain(
      '<img src=x onerror="window.__xss = 2"> hello from Mallory',
    );
    await noXss();

    await page.goto(`${harness.site.url}#/benchmarks?dataset=user_xss&conv=c1`);
    await page.waitForSelector('.viewport[data-turns="2"] [data-turn-row]', { timeout: 180_000 });
    const first = page.locator('[data-dia-id="L1"]');
    expect(await first.innerText()).toContain(
      '<img src=x onerror="window.__xss = 2"> hello from Mallory',
    );
    expect(await page.locator('[data-dia-id="L2"]').innerText()).toContain(
      '<script>window.__xss = 4</script>',
    );
    await noXss();
  });

  it('has no serious or critical axe violations in the mapping step and the report', async () => {
    await page.goto(`${harness.site.url}#/mydata?table=user_submission`);
    await page.waitForSelector('[data-domain-row="TestMem/All domains"]', { timeout: 180_000 });
    await pick(path.join(GOOD, 'records.csv'));
    await page.waitForSelector('#mapping-title:has-text("records.csv")');
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
