// Issue 37.5: a benchmark file of 99,900 memories then 100 queries (no query among the first 200
// records) is mapped with its query field, loaded whole and declared on Your data. On main the
// mapping offered no query field and loading stopped at line 99,901.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LATE_QUERIES_NAME, lateQueriesJsonl } from '../support/late-queries.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const TABLE = 'user_late_queries';
let page: Page;

beforeAll(async () => {
  ({ page } = await harness.open('#/mydata', {
    viewport: { width: 1400, height: 1000 },
    ready: '[data-table-count="inmind_tasks"]',
    timeout: 180_000,
  }));
}, 300_000);

describe('Your data: a benchmark whose queries come after 10⁵ memories', () => {
  it('maps the late query field, loads every row and declares it', async () => {
    const buffer = Buffer.from(lateQueriesJsonl(99_900, 100));
    const t0 = Date.now();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: LATE_QUERIES_NAME, mimeType: 'application/jsonl', buffer });
    await page.waitForSelector(`#mapping-title:has-text("${LATE_QUERIES_NAME}")`, {
      timeout: 180_000,
    });
    const inspected = Date.now() - t0;
    expect(await page.locator('select[data-role="query"]').inputValue()).toBe('["query"]');
    expect(await page.locator('select[data-role="memory"]').inputValue()).toBe('["memory"]');
    expect(await page.locator('select[data-role="gold"]').inputValue()).toBe('["gold"]');
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector(
      `[data-load-notice]:has-text("Loaded 100,000 rows from ${LATE_QUERIES_NAME} into ${TABLE}.")`,
      { timeout: 600_000 },
    );
    const form = page.locator(`[data-declaration="${TABLE}"]`);
    await form.locator('[data-part="query.category"] option[value="fields.category"]').waitFor({
      state: 'attached',
      timeout: 120_000,
    });
    expect(await form.locator('[data-part="query.text"]').inputValue()).toBe('query');
    expect(await form.locator('[data-part="query.gold"]').inputValue()).toBe('gold');
    expect(await form.locator('[data-part="memory.id"]').inputValue()).toBe('fields.id');
    const t1 = Date.now();
    await form.locator('[data-declare]').click();
    await form
      .locator('[data-declare-notice]')
      .filter({ hasText: `${TABLE} is a benchmark: 99,900 memories and 100 queries.` })
      .waitFor({ timeout: 300_000 });
    // Reported, not asserted: the figures of issue 37.5 on this machine.
    console.log(`late-kinds: inspected in ${inspected} ms, declared in ${Date.now() - t1} ms`);
  }, 900_000);
});
