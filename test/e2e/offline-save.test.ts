import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useHarness } from './harness.ts';

// A reader who visited the home page only, then lost the network: what the header says, what
// the Playground's MiniLM says before the models are saved, that going back online retries, and
// that "Save for offline, models included" makes MiniLM rank offline.
const harness = useHarness({
  // The site's MiniLM pack holds the background turns: only the typed texts are embedded here.
  site: { packs: { models: ['minilm'], dtypes: ['fp32'], protocols: ['inmind?bg=content'] } },
  // Offline, the model files the worker cannot answer fail to load; nothing else may fail.
  expectedErrors: [/Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)/],
});

const MINILM_CELL = '[data-playground-ranks] tbody tr:first-child td[data-retriever="minilm"]';

async function visitHomeOnly(): Promise<Page> {
  // Wide enough that the header spells out the models' state beside the headline.
  const { page } = await harness.open('#/', {
    ready: 'main h1',
    viewport: { width: 1600, height: 900 },
  });
  await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
  return page;
}

async function openPlayground(page: Page): Promise<void> {
  await page.evaluate(() => (location.hash = '#/playground?r=minilm'));
  await page.waitForSelector('[data-playground-ranks]', { timeout: 120_000 });
}

const modelsWord = (page: Page) => page.locator('.offline-models').innerText();

describe('offline after a visit to the home page only', () => {
  it('says the models are not saved, names the fix offline, and retries once back online', async () => {
    const page = await visitHomeOnly();
    await expect.poll(() => modelsWord(page), { timeout: 30_000 }).toBe('· models not saved');
    expect(await page.locator('.offline-headline').innerText()).toBe('Available offline');

    await page.context().setOffline(true);
    await openPlayground(page);
    const failure = page.locator('[role="status"]', { hasText: 'is not saved on this device' });
    await failure.waitFor({ timeout: 120_000 });
    const text = await failure.innerText();
    expect(text).toContain('this page is offline');
    expect(text).toContain('Save for offline, models included');
    expect(text).not.toMatch(/npm run models|Hugging Face/);
    expect(await page.getByText(/^Computing /).count()).toBe(0);

    await page.context().setOffline(false);
    await expect
      .poll(() => page.locator(MINILM_CELL).innerText(), { timeout: 180_000 })
      .toMatch(/^#\d+/);
    expect(await failure.count()).toBe(0);
  });

  it('saves the models with their size shown first, then ranks with MiniLM offline', async () => {
    const page = await visitHomeOnly();
    await page.locator('.offline-status summary').click();
    const save = page.locator('[data-action="save-models"]');
    await save.waitFor({ timeout: 30_000 });
    expect(await save.innerText()).toMatch(
      /^Save for offline, models included \(\d+(\.\d+)? MiB\)$/,
    );
    await save.click();
    await expect.poll(() => modelsWord(page), { timeout: 300_000 }).toBe('· models saved');
    expect(await page.locator('.offline-status .error').count()).toBe(0);

    await page.context().setOffline(true);
    await openPlayground(page);
    await expect
      .poll(() => page.locator(MINILM_CELL).innerText(), { timeout: 180_000 })
      .toMatch(/^#\d+/);
    expect(await page.getByText('is not saved on this device').count()).toBe(0);
    // Offline too the background turns come from the site's pack the worker precached.
    expect(await page.locator('[data-field="backend"]').innerText()).toMatch(
      /texts from the site's vectors \(sha256 [0-9a-f]{12}…\)/,
    );
  });
});
