import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
let pageIds: string[] = [];

beforeAll(async () => {
  ({ page, watch } = await harness.tab());
  // Every table loaded (the conversation benchmarks load with a page that reads them), so every
  // chart can draw.
  await page.goto(`${harness.site.url}#/mydata`);
  await page.waitForSelector('[data-table-count="queries"]', { timeout: 180_000 });
  pageIds = (
    await page.$$eval('nav[aria-label="Pages"] a', (as) =>
      as.map((a) => a.getAttribute('href') ?? ''),
    )
  ).map((h) => h.replace(/^#\//, ''));
});

/** Shows a page and waits until it has drawn what it draws without user input. */
async function show(id: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/${id}`);
  await page.waitForSelector('main h1');
  await page.waitForFunction(
    () =>
      !document.querySelector('.loading') &&
      Array.from(document.querySelectorAll('[data-chart] .chart-canvas')).every(
        (c) => c.getAttribute('data-rendered') === 'true',
      ),
    null,
    { timeout: 120_000 },
  );
}

describe('axe-core: no serious or critical violation on any page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every page in the registry, ${scheme} mode`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      expect(pageIds.length).toBeGreaterThan(3);
      const found: Record<string, string[]> = {};
      for (const id of pageIds) {
        await show(id);
        const v = await seriousViolations(page);
        if (v.length > 0) found[id] = v;
      }
      expect(found).toEqual({});
    });
  }
});

describe('keyboard use', () => {
  it('reaches the skip link first and shows where focus is', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await show('inmind');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => ({
      text: document.activeElement?.textContent,
      outline: getComputedStyle(document.activeElement as Element).outlineStyle,
    }));
    expect(first).toEqual({ text: 'Skip to content', outline: 'solid' });
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => [document.activeElement?.id, location.hash])).toEqual([
      'main',
      '#/inmind',
    ]);
  });

  it('opens the offline panel and copies a link from the keyboard', async () => {
    const summary = page.locator('.offline-status summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('.offline-status').getAttribute('open')).not.toBeNull();
    await page.keyboard.press('Enter');
    await page.locator('[data-copy-link]').focus();
    expect(
      await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle),
    ).toBe('solid');
  });

  it('selects a task with the keyboard alone', async () => {
    await page.getByLabel('Search tasks').focus();
    await page.keyboard.type('macaron');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    for (let i = 0; i < 12; i++) {
      if (await page.evaluate(() => document.activeElement?.hasAttribute('data-task-id'))) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-task-card="155"]');
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
