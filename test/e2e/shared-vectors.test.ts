// One vector cache for every page: what the Playground embedded, Reproduce finds cached (same
// text, model, weights and dtype), and a fresh browser profile finds nothing. The Playground
// embeds the turns without their timestamp suffix, so Reproduce runs with `bg=content` (its
// default, `raw`, keeps the suffix as the paper did: other texts, other vectors).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { showView } from '../lib/protocols/page-helpers.ts';
import { useHarness } from './harness.ts';

/** InMind's 486 LME-s background turns hold 484 distinct texts (some turns repeat). */
const BACKGROUND_TEXTS = 484;

const harness = useHarness({ site: 'plain' });
const watches: PageWatch[] = [];

async function freshPage(): Promise<Page> {
  const { page, watch } = await harness.tab();
  watches.push(watch);
  return page;
}

async function reproduceCached(page: Page): Promise<{ cached: number; total: number }> {
  await showView(
    page,
    harness.site.url,
    { bench: 'inmind', ret: 'tiny-bert' },
    { device: 'wasm', bg: 'content' },
  );
  const line = page.locator('[data-field="timings"]');
  const cached = Number(await line.locator('[data-field="cached"]').innerText());
  const total = Number((await line.innerText()).match(/of (\d+) texts from the vector cache/)?.[1]);
  return { cached, total };
}

describe('vectors shared across pages', () => {
  it('a fresh profile: Reproduce embeds every text itself', async () => {
    const { cached, total } = await reproduceCached(await freshPage());
    expect(total).toBeGreaterThan(BACKGROUND_TEXTS);
    expect(cached).toBe(0);
  });

  it("after the Playground ranked with tiny-bert, Reproduce finds the 486 turns' vectors cached", async () => {
    const page = await freshPage();
    await page.goto(`${harness.site.url}#/playground?tiny=on`);
    const cell = page
      .locator('[data-playground-ranks] tbody tr')
      .first()
      .locator('td[data-retriever="tiny-bert"]');
    await expect.poll(() => cell.innerText(), { timeout: 120_000 }).toMatch(/^#\d+ · /);
    const { cached, total } = await reproduceCached(page);
    console.log(
      `Reproduce after the Playground: ${cached} of ${total} texts from the vector cache`,
    );
    expect(cached).toBeGreaterThanOrEqual(BACKGROUND_TEXTS);
    expect(cached).toBeLessThan(total);
  });

  it('made no request outside the test server and logged no console error', () => {
    for (const watch of watches) {
      expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
    }
  });
});
