import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;

const viewport = '.viewport[role="region"]';

/** Whether the element lies inside the conversation viewport's visible box. */
async function inView(selector: string): Promise<boolean> {
  return page.$eval(
    selector,
    (el, vp) => {
      const box = el.getBoundingClientRect();
      const frame = document.querySelector(vp)?.getBoundingClientRect();
      return (
        !!frame && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1 && box.height > 0
      );
    },
    viewport,
  );
}

async function openView(hash: string, turns: number) {
  await page.goto(`${harness.site.url}${hash}`);
  await page.waitForSelector(`${viewport}[data-turns="${turns}"] [data-turn-row]`, {
    timeout: 180_000,
  });
}

beforeAll(async () => {
  ({ page, watch } = await harness.tab({ viewport: { width: 1400, height: 1000 } }));
});

describe('conversation viewer and query explorer', () => {
  it('virtualises a 689-turn conversation: far fewer rows in the DOM than turns', async () => {
    await openView('#/benchmarks?dataset=locomo&conv=conv-47', 689);
    const rows = await page.locator('[data-turn-row]').count();
    expect(rows).toBeGreaterThan(3);
    expect(rows).toBeLessThan(60);
    await page.$eval(viewport, (el) => (el.scrollTop = el.scrollHeight));
    await page.waitForSelector('[data-dia-id="D31:25"]');
    expect(await page.locator('[data-turn-row]').count()).toBeLessThan(60);
    expect(await page.locator('[data-dia-id="D1:1"]').count()).toBe(0);
  });

  it('highlights and scrolls to the gold evidence of a selected LoCoMo question', async () => {
    await openView('#/benchmarks', 419);
    await page.getByLabel('Search query text').fill('Melanie paint recently');
    const item = page.locator('li[data-query-id="conv-26:q37"]');
    await item.waitFor();
    await item.locator('button.open').click();
    await page.waitForFunction(() => location.hash.includes('query=conv-26%3Aq37'));
    const first = '[data-dia-id="D8:6"]';
    await page.waitForSelector(`${viewport}[data-focused="D8:6"] ${first}[data-evidence="true"]`);
    expect(await inView(first)).toBe(true);
    const style = await page.$eval(first, (el) => getComputedStyle(el).borderLeftWidth);
    expect(style).toBe('4px');
    expect(await page.locator(`${first} .badge`).innerText()).toBe('gold evidence');
    expect(await page.locator('[data-evidence="true"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('[data-dia-id="D8:5"]').getAttribute('data-evidence')).toBeNull();

    await page
      .locator('[data-query-card]')
      .getByRole('button', { name: 'Scroll to turn D9:17' })
      .click();
    const second = '[data-dia-id="D9:17"]';
    await page.waitForSelector(`${viewport}[data-focused="D9:17"] ${second}[data-evidence="true"]`);
    expect(await inView(second)).toBe(true);
    expect(page.url()).toContain('turn=D9%3A17');
  });

  it('jumps from a gold-evidence drill-down to the turn in context', async () => {
    await page.getByLabel('Search query text').fill('pottery workshop');
    const item = page.locator('li[data-query-id="conv-26:q29"]');
    await item.waitFor();
    const jump = item.locator('button[data-gold-turn]').first();
    const target = (await jump.getAttribute('data-gold-turn')) ?? '';
    await jump.click();
    await page.waitForSelector(
      `${viewport}[data-focused="${target}"] [data-dia-id="${target}"].selected`,
    );
    expect(await inView(`[data-dia-id="${target}"]`)).toBe(true);
    expect(page.url()).toMatch(/query=conv-26%3Aq29/);
  });

  it('opens a deep link to a turn in another conversation', async () => {
    await openView('#/benchmarks?dataset=locomo&conv=conv-30&turn=D3%3A5', 369);
    await page.waitForSelector(`${viewport}[data-focused="D3:5"] [data-dia-id="D3:5"].selected`);
    expect(await inView('[data-dia-id="D3:5"]')).toBe(true);
  });

  it('shows the InMind background as one 486-turn conversation in 47 sessions', async () => {
    await openView('#/benchmarks?dataset=inmind-background', 486);
    const picked = page
      .getByRole('combobox', { name: 'Conversation', exact: true })
      .locator('option:checked');
    // The select shows the pick once Svelte has applied it (a frame after the rows may count 486).
    await expect.poll(() => picked.innerText()).toBe('lme_s_background (486 turns, 47 sessions)');
    expect(await page.locator('[data-turn-row]').count()).toBeLessThan(60);
    await page.waitForFunction((vp) => {
      const el = document.querySelector(vp);
      if (el) el.scrollTop = el.scrollHeight;
      return document.querySelector('[data-dia-id="session-c65042d7_1-turn-11"]') !== null;
    }, viewport);
    expect(await page.locator('[data-turn-row]').count()).toBeLessThan(60);
  });

  it('filters by style and category and works from the keyboard', async () => {
    await openView('#/benchmarks?qds=locomo&style=question&cat=2', 419);
    await page.waitForSelector('[data-query-count="321"]');
    const first = page.locator('li[data-query-id]').first();
    const evidence =
      (await first.locator('button[data-gold-turn]').first().getAttribute('data-gold-turn')) ?? '';
    expect(evidence).not.toBe('');
    await first.locator('button.open').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /query=conv-/.test(location.hash));
    // Opening a query scrolls to its first evidence turn and re-renders the virtual rows: pick a
    // row only once the viewer has settled there, and keep hold of it by id, not by position.
    await page.waitForSelector(
      `${viewport}[data-focused="${evidence}"] [data-dia-id="${evidence}"]`,
    );
    const id = (await page.locator('[data-turn-row]').nth(2).getAttribute('data-dia-id')) ?? '';
    const row = page.locator(`[data-turn-row][data-dia-id="${id}"]`);
    const select = row.locator('button.select');
    await select.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (d) => location.hash.includes(`turn=${encodeURIComponent(d ?? '')}`),
      id,
    );
    expect(await select.getAttribute('aria-pressed')).toBe('true');
    const outline = await select.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
  });

  it('has no serious or critical axe violations with a query open', async () => {
    await openView('#/benchmarks?conv=conv-26&dataset=locomo&query=conv-26%3Aq37', 419);
    await page.waitForSelector(`${viewport}[data-focused="D8:6"]`);
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
