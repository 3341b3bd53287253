// The Playground as a built site serves it: with the site's own MiniLM vectors (`npm run
// vectors`), so MiniLM ranks the 486 background turns from the pack and embeds only the typed
// texts in the page; tiny-bert, which the teacher adds, embeds everything here.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { useHarness } from './harness.ts';

// Only the Playground's view: the background with its timestamp suffix removed. Cross-origin
// isolated, as the service worker makes the site: MiniLM runs on threaded WASM.
const harness = useHarness({
  site: { packs: { models: ['minilm'], dtypes: ['fp32'], protocols: ['inmind?bg=content'] } },
});
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  ({ page, watch } = await harness.open('#/playground'));
});

// A bound for a hung model, not a target: MiniLM embedding the 486 background turns itself took
// past 120 s at load 7; from the site's vectors it ranks in seconds.
const MODEL_WAIT = 400_000;

async function rank(retriever: string, memory = 0): Promise<number> {
  const cell = page
    .locator('[data-playground-ranks] tbody tr')
    .nth(memory)
    .locator(`td[data-retriever="${retriever}"]`);
  const timeout = retriever === 'bm25' ? 120_000 : MODEL_WAIT;
  await expect.poll(() => cell.innerText(), { timeout }).toMatch(/^#\d+ · /);
  return Number((await cell.innerText()).match(/^#(\d+)/)?.[1]);
}

const hash = () => page.evaluate(() => location.hash);
const param = async (name: string) => new URLSearchParams((await hash()).split('?')[1]).get(name);

describe('the playground and its guided walk', () => {
  it(
    'opens on the tree-nut case: BM25 buries the memory under the macaron question',
    async () => {
      await expect
        .poll(() => page.locator('[data-playground-memories]').inputValue(), { timeout: 120_000 })
        .toMatch(/tree nut allergy/);
      expect(await page.locator('[data-playground-query]').inputValue()).toMatch(/macarons/);
      expect(await rank('bm25')).toBe(412);
      const caption = await page.locator('[data-playground-ranks] caption').innerText();
      expect(caption).toContain('488 texts (486 background turns + 2 memories)');
      // The test model never runs unasked: BM25 alone until a real model is in focus.
      expect(
        await page.locator('[data-playground-ranks] [data-retriever="tiny-bert"]').count(),
      ).toBe(0);
      expect(
        await page.locator('input[name="playground-retriever"][value="tiny-bert"]').count(),
      ).toBe(0);
    },
    MODEL_WAIT,
  );

  it(
    'walks five steps, each a view in the URL, with the figure described in words',
    async () => {
      await page.getByRole('button', { name: 'Start the guided walk' }).click();
      await page.waitForSelector('[data-walk-step="1"]');
      expect(await param('qv')).toBe('naive');
      const naive = await rank('bm25');
      expect(naive).toBeLessThanOrEqual(5);
      const walkText = page.locator('[data-walk-text]');
      expect(await walkText.innerText()).toContain(
        `BM25 puts the memory in the top 5 of 488 texts (BM25 #${naive})`,
      );

      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForSelector('[data-walk-step="2"]');
      const indirect = await rank('bm25');
      expect(indirect).toBeGreaterThan(300);
      await expect
        .poll(() => walkText.innerText())
        .toContain(`BM25 does not put the memory in the top 5 of 488 texts (BM25 #${indirect})`);

      // The site serves the real MiniLM, so the walk's dense step uses it rather than tiny-bert.
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForSelector('[data-walk-step="3"]');
      expect(await param('r')).toBe('minilm');
      const minilmRank = await rank('minilm');
      console.info(
        `playground step 3: the tree-nut memory ranks #${minilmRank} of 488 under MiniLM`,
      );
      expect(minilmRank).toBeGreaterThanOrEqual(1);
      await expect.poll(() => walkText.innerText()).toContain(`#${minilmRank})`);
      // Auto never runs on a software adapter (headless Chromium's SwiftShader): WASM here, for
      // the texts the site's pack lacks.
      const backend = await page.locator('[data-field="backend"]').innerText();
      const [, fromPack, here] =
        backend.match(
          /^Computed on WASM(?: · probe: 24 texts, [^;]+)?; (\d+) texts from the site's vectors \(sha256 [0-9a-f]{12}…\), (\d+) embedded in this browser\.$/,
        ) ?? [];
      // The turns from the pack; the case's memory and queries (and a turn the pack lacks) here.
      expect(Number(fromPack)).toBeGreaterThanOrEqual(485);
      expect(Number(here)).toBeLessThanOrEqual(4);
      await page.waitForSelector(
        '[data-chart="playground-scores"] .chart-canvas[data-rendered="true"]',
        { timeout: MODEL_WAIT },
      );
      const alt = await page
        .locator('[data-chart="playground-scores"] .chart-canvas')
        .getAttribute('aria-label');
      expect(alt).toMatch(
        /^Cosine \(all-MiniLM-L6-v2.*\) of 486 background turns: median .*; memory 1 scores .*, rank \d+ of 488/,
      );

      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForSelector('[data-walk-step="4"]');
      await expect
        .poll(() => page.locator('[data-playground-query]').inputValue(), { timeout: 120_000 })
        .toBe('When did Caroline go to the LGBTQ support group?');
      expect(await rank('bm25')).toBe(1);
      expect(await page.locator('.top-list li').first().getAttribute('data-memory')).toBe('0');
      await expect
        .poll(() => walkText.innerText())
        .toMatch(/BM25 puts the memory in the top 5 of \d+ texts \(BM25 #1\)/);

      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForSelector('[data-walk-step="5"]');
      expect(await page.locator('[data-playground-memories]').inputValue()).toBe('');
      await page.goBack();
      await page.waitForSelector('[data-walk-step="4"]');
      await page.goForward();
      await page.waitForSelector('[data-walk-step="5"]');
    },
    2 * MODEL_WAIT,
  );

  it(
    'ranks typed memories under BM25 and, once the teacher adds it, tiny-bert',
    async () => {
      await page.locator('[data-playground-memories]').fill('I adopted a cat last spring.');
      await page.locator('[data-playground-query]').fill('Lilies for the living room?');
      await expect
        .poll(() => page.locator('[data-playground-ranks] caption').innerText())
        .toContain('(486 background turns + 1 memory)');
      await page.locator('[data-test-model]').check();
      await page.waitForFunction(() => location.hash.includes('tiny=on'));
      await page
        .locator('[data-playground-memories]')
        .fill('I adopted a cat last spring.\nMy sister is visiting.');
      await page
        .locator('[data-playground-query]')
        .fill('I want lilies for the living room. Good idea?');
      await page.waitForFunction(() => location.hash.includes('mem='));
      expect(await rank('bm25', 0)).toBeGreaterThan(1);
      expect(await rank('bm25', 1)).toBeGreaterThan(1);
      expect(await rank('tiny-bert', 1)).toBeGreaterThanOrEqual(1);
      expect(await param('mem')).toBe('I adopted a cat last spring.\nMy sister is visiting.');
      expect(await param('case')).toBe('custom');
      await page.getByRole('button', { name: 'End the walk' }).click();
      await page.waitForFunction(() => !location.hash.includes('step='));
    },
    MODEL_WAIT,
  );

  it('opens a link to step 4 on a fresh page with step 4’s case, its ranks and words', async () => {
    const { page: fresh, watch: freshWatch } = await harness.tab();
    try {
      await fresh.goto(`${harness.site.url}#/playground?step=4`);
      await fresh.waitForSelector('[data-walk-step="4"]');
      await fresh.waitForFunction(() => location.hash.includes('case=locomo-direct'));
      await expect
        .poll(() => fresh.locator('[data-playground-query]').inputValue(), { timeout: 120_000 })
        .toBe('When did Caroline go to the LGBTQ support group?');
      const cell = fresh.locator('[data-playground-ranks] tbody tr td[data-retriever="bm25"]');
      await expect.poll(() => cell.first().innerText(), { timeout: 120_000 }).toMatch(/^#1 · /);
      await expect
        .poll(() => fresh.locator('[data-walk-text]').innerText())
        .toMatch(/^LoCoMo asks .* BM25 puts the memory in the top 5 of \d+ texts \(BM25 #1\)\.$/);
      expect(freshWatch.foreignRequests(harness.site.origin)).toEqual([]);
      expect(freshWatch.consoleErrors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
