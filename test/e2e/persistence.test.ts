// Your data across visits: a loaded table survives a reload (kept in IndexedDB and restored by
// the same loader), a link to a table this browser lacks says so, removing one frees it, and an
// InMind submission shows its rank-based Target Recall proxy, labelled proxy.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const GOOD = path.join(repoRoot, 'test/fixtures/userdata');
const SUBMISSION = 'user_submission_ranked';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;

async function loadFile(file: string, table: string) {
  await page.locator('input[type="file"]').setInputFiles(path.join(GOOD, file));
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(
    `[data-load-notice]:has-text("into ${table}. Kept in this browser for your next visit.")`,
  );
}

const count = (table: string) => page.locator(`[data-table-count="${table}"]`);

beforeAll(async () => {
  // One context, so IndexedDB outlives the reloads.
  ({ page, watch } = await harness.open('#/mydata', {
    viewport: { width: 1400, height: 1000 },
    ready: '[data-table-count="inmind_tasks"]',
    timeout: 180_000,
  }));
});

describe('user tables kept in this browser', () => {
  it('loads a table and a submission, and shows the proxy scores labelled proxy', async () => {
    await loadFile('records.jsonl', 'user_records');
    await loadFile('submission-ranked.jsonl', SUBMISSION);
    expect(await page.locator('[data-user-table="user_records"] [data-kept]').innerText()).toMatch(
      /^kept in this browser \(\d+(\.\d)? (B|KiB)\)$/,
    );
    const ranked = page.locator('[data-proxy-row="RankedRAG"] td');
    await ranked.first().waitFor({ timeout: 60_000 });
    expect(await ranked.allInnerTexts()).toEqual([
      'RankedRAG',
      '4',
      '75.0% (3/4)',
      '25.0% (1/4)',
      '50.0% (2/4)',
      '75.0% (3/4)',
      '5',
    ]);
    expect(await page.locator('[data-proxy-table] th').allInnerTexts()).toContain(
      'Recall@5 (proxy)',
    );
    const chart = page.locator(`[data-chart="submission-proxy-${SUBMISSION}"]`);
    await chart.locator('.chart-canvas[data-rendered="true"]').waitFor();
    const marks = await chart
      .locator('[aria-label*="(proxy) | "]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(marks).toEqual([
      'RankedRAG (proxy) | your submission (proxy: target rank ≤ 5 in its context) | 50.0% (proxy, 2/4)',
      'Summariser (proxy) | your submission (proxy: target rank ≤ 5 in its context) | 50.0% (proxy, 1/2)',
    ]);
    expect(await chart.locator('svg text', { hasText: /^proxy$/ }).count()).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      chart.getByRole('button', { name: 'CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\n')[0]).toContain('comparability');
    expect(csv).toContain(
      'RankedRAG (proxy),your submission (proxy: target rank ≤ 5 in its context),proxy,50',
    );
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('a reload restores both tables, with a notice', async () => {
    await page.reload();
    const notice = page.locator('[data-restore-notice]');
    await notice.waitFor({ timeout: 180_000 });
    expect(await notice.innerText()).toBe(
      `Restored 2 tables from this browser: user_records, ${SUBMISSION}.`,
    );
    await count('user_records').filter({ hasText: '5' }).waitFor();
    await count(SUBMISSION).filter({ hasText: '6' }).waitFor();
    await page.locator('[data-proxy-row="Summariser"]').waitFor();
    // The report, its chart and the table list fit a phone without sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .locator(`[data-chart="submission-proxy-${SUBMISSION}"] .chart-canvas[data-rendered="true"]`)
      .waitFor();
    if (process.env.MEMLENS_SCREENSHOTS_DIR) {
      await page.screenshot({
        path: path.join(process.env.MEMLENS_SCREENSHOTS_DIR, 'mydata-tables-390.png'),
        fullPage: true,
      });
    }
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.setViewportSize({ width: 1400, height: 1000 });
    if (process.env.MEMLENS_SCREENSHOTS_DIR) {
      await page.waitForTimeout(500);
      await page.screenshot({
        path: path.join(process.env.MEMLENS_SCREENSHOTS_DIR, 'mydata-tables-1400.png'),
        fullPage: true,
      });
    }
  });

  it('a link naming a table this browser has not stored says so', async () => {
    await page.evaluate(() => (location.hash = '#/mydata?table=user_elsewhere'));
    const unknown = page.locator('[data-unknown-table]');
    await unknown.waitFor();
    expect(await unknown.innerText()).toBe(
      'This link names table user_elsewhere, which this browser has not stored. Load the file to see it.',
    );
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('removing a table by keyboard drops it here and from the store', async () => {
    await page.getByRole('button', { name: 'Remove user_records' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-user-table="user_records"]').waitFor({ state: 'detached' });
    await count('user_records').waitFor({ state: 'detached' });
    // The store's count is asked again after the removal: wait for it, not for a fixed time.
    await expect
      .poll(() => page.locator('[data-storage-used]').innerText(), { timeout: 30_000 })
      .toMatch(
        /^1 table kept in this browser \([\d.]+ KiB\); this site uses .+ of browser storage\./,
      );
    await page.reload();
    const notice = page.locator('[data-restore-notice]');
    await notice.waitFor({ timeout: 180_000 });
    expect(await notice.innerText()).toBe(`Restored 1 table from this browser: ${SUBMISSION}.`);
    expect(await page.locator('[data-user-table="user_records"]').count()).toBe(0);
  });

  it('an entry that cannot be read is named on reload, and the other tables still load', async () => {
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('memlens-user-tables', 1);
          open.onerror = () => reject(new Error('no store'));
          open.onsuccess = () => {
            const tx = open.result.transaction('tables', 'readwrite');
            tx.objectStore('tables').put({ version: 1, table: 'user_broken' }, 'user_broken');
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        }),
    );
    await page.reload();
    const failure = page.locator('[data-restore-error="user_broken"]');
    await failure.waitFor({ timeout: 180_000 });
    expect(await failure.innerText()).toBe(
      'Could not restore user_broken: the copy kept in this browser cannot be read (unknown format undefined). Every other table is loaded.',
    );
    await count(SUBMISSION).filter({ hasText: '6' }).waitFor();
    await page.getByRole('button', { name: 'Remove user_broken' }).click();
    await page.locator('[data-broken-table="user_broken"]').waitFor({ state: 'detached' });
  });

  it('asked nothing of another origin and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
