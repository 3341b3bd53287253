import { beforeAll, describe, expect, it } from 'vitest';
import {
  EMBED_BUTTON,
  cacheCount,
  counts,
  storedVectors,
  waitForEmbedReady,
  type WatchedPage,
} from '../lib/embed/page-helpers.ts';
import { maxAbsDiff, rows } from '../lib/embed/reference-vectors.ts';
import { useHarness } from './harness.ts';

const TURNS = 486;
const BATCH = 32;
const DIM = 32;

const harness = useHarness({ site: 'plain' });
let tab: WatchedPage;
let firstRun: number[];
let distinctTexts: number;

beforeAll(async () => {
  tab = await harness.open('#/embeddings?model=tiny-bert&device=wasm');
});

async function embedAll(): Promise<void> {
  await waitForEmbedReady(tab.page);
  await tab.page.getByRole('button', { name: EMBED_BUTTON }).click();
  const phase = tab.page.locator('[data-phase="done"], [data-phase="error"]');
  await phase.waitFor({ timeout: 120_000 });
  if ((await phase.getAttribute('data-phase')) === 'error') {
    const alert = await tab.page.locator('.page [role="alert"]').allInnerTexts();
    throw new Error(`embedding failed: ${alert.join(' ')} (${tab.failedResponses.join(', ')})`);
  }
}

async function lastRun(): Promise<number[]> {
  const run = await tab.page.evaluate(() => window.memlens?.lastRun() ?? null);
  if (!run) throw new Error('no completed run');
  expect(run.dim).toBe(DIM);
  return run.vectors;
}

describe('Embeddings page: the 486 LME-s background turns with tiny-bert on WASM', () => {
  it('embeds every turn behind a progress bar that reaches 100%', async () => {
    const { page } = tab;
    await waitForEmbedReady(page);
    expect(await page.getByRole('button', { name: EMBED_BUTTON }).innerText()).toContain('486');
    await embedAll();
    const bar = page.getByRole('progressbar', { name: 'Embedding progress' });
    expect(
      await bar.evaluate((el) => [
        (el as HTMLProgressElement).value,
        (el as HTMLProgressElement).max,
      ]),
    ).toEqual([TURNS, TURNS]);
    const c = await counts(page);
    expect(c.done).toBe(TURNS);
    expect(c.cached).toBe(0);
    // Identical turns are embedded once; every distinct text is cached.
    distinctTexts = c.computed;
    expect(distinctTexts).toBeGreaterThan(TURNS - 10);
    expect(c.modelCalls).toBe(Math.ceil(distinctTexts / BATCH));
    expect(await cacheCount(page)).toBe(distinctTexts);
    expect(await page.locator('[data-field="backend"]').innerText()).toBe('WASM');
    expect(await page.locator('[data-field="rate"]').innerText()).toMatch(/^\d+(\.\d)? texts\/s$/);
    expect(page.url()).toContain('model=tiny-bert');
    expect(page.url()).toContain('device=wasm');
    firstRun = await lastRun();
    expect(firstRun).toHaveLength(TURNS * DIM);
    expect(firstRun.every(Number.isFinite)).toBe(true);
  });

  it('serves every vector from the cache after a reload, with no model call', async () => {
    await tab.page.reload();
    await embedAll();
    const c = await counts(tab.page);
    expect(c).toEqual({ done: TURNS, cached: TURNS, computed: 0, modelCalls: 0 });
    expect(await lastRun()).toEqual(firstRun);
  });

  it('keeps only whole batches when a run is cancelled midway, and resumes from them', async () => {
    const { page } = tab;
    await page.getByRole('button', { name: 'Clear cache' }).click();
    await page.waitForSelector('.device-panel[data-cache-count="0"]');
    // Cancel from inside the page the moment the second batch is stored, while the worker is
    // already computing the third: that in-flight batch must never reach the cache.
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        const el = document.querySelector('[data-embed-counts]');
        if (Number(el?.getAttribute('data-computed') ?? 0) < 64) return;
        observer.disconnect();
        const status = document.querySelector('.embed-progress span')?.textContent ?? '';
        document.body.dataset.statusAtCancel = status.replace(/\s+/g, ' ').trim();
        [...document.querySelectorAll('button')]
          .find((b) => b.textContent?.trim() === 'Cancel')
          ?.click();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('button', { name: EMBED_BUTTON }).click();
    await page.waitForSelector('[data-phase="cancelled"]', { timeout: 60_000 });

    // Precisely: the cache holds exactly the distinct texts of the batches the page reported as
    // stored, a whole number of 32-text batches, fewer than all; the run produced no matrix.
    // While running, the status line shows the count, the rate and the time left.
    expect(await page.locator('body').getAttribute('data-status-at-cancel')).toMatch(
      /^\d+ \/ 486 · \d+\.\d texts\/s · ETA (\d+\.\d s|\d+ min)$/,
    );
    const stored = await cacheCount(page);
    const c = await counts(page);
    console.info(`cancelled after ${c.modelCalls} stored batches: ${stored} vectors cached`);
    expect(stored).toBe(c.computed);
    expect(stored % BATCH).toBe(0);
    expect(stored / BATCH).toBe(c.modelCalls);
    expect(stored).toBeGreaterThanOrEqual(64);
    expect(stored).toBeLessThan(distinctTexts);
    expect(await page.evaluate(() => window.memlens?.lastRun() ?? null)).toBeNull();
    // A late batch from the worker must not land in the cache after the run has ended.
    expect(await storedVectors(page)).toBe(stored);
    await page.waitForTimeout(750);
    expect(await storedVectors(page)).toBe(stored);

    await embedAll();
    const resumed = await counts(page);
    expect(resumed.done).toBe(TURNS);
    expect(resumed.computed).toBe(distinctTexts - stored);
    expect(resumed.cached).toBeGreaterThanOrEqual(stored);
    expect(resumed.cached + resumed.computed).toBeLessThanOrEqual(TURNS);
    expect(await cacheCount(page)).toBe(distinctTexts);
    expect(await storedVectors(page)).toBe(distinctTexts);
    // Other batch compositions pad differently: equal to float32 rounding, not bit for bit.
    expect(maxAbsDiff(await lastRun(), DIM, rows(firstRun, DIM))).toBeLessThan(1e-5);
  });

  it('keeps the model, device and dtype choices in the URL', async () => {
    const { page } = tab;
    await page.getByRole('combobox', { name: 'Device' }).selectOption('webgpu');
    await page.waitForFunction(() => location.hash.includes('device=webgpu'));
    await page.getByRole('combobox', { name: 'Model' }).selectOption('minilm');
    await page.waitForFunction(
      () => !location.hash.includes('model=') && location.hash.includes('device=webgpu'),
    );
    await page.getByRole('combobox', { name: 'dtype' }).selectOption('q8');
    await page.waitForFunction(() => location.hash.includes('dtype=q8'));
    await page.reload();
    await page.waitForSelector('.device-panel');
    expect(await page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('minilm');
    expect(await page.getByRole('combobox', { name: 'dtype' }).inputValue()).toBe('q8');
    expect(await page.getByRole('combobox', { name: 'Device' }).inputValue()).toBe('webgpu');
  });

  it('made no request outside the site and logged no console error', () => {
    expect(tab.watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(tab.failedResponses).toEqual([]);
    expect(tab.watch.consoleErrors).toEqual([]);
  });
});
