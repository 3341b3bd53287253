// The Embeddings page with the models this site really has: MiniLM is the default, loads with a
// byte progress bar and embeds on the page until cancelled; BGE-small, which no package ships, is
// marked "not on this site" at once.
import { describe, expect, it } from 'vitest';
import { EMBED_BUTTON, cacheCount, counts, waitForEmbedReady } from '../lib/embed/page-helpers.ts';
import { useHarness } from './harness.ts';

const STORED_BEFORE_CANCEL = 64;

// Cross-origin isolated, as the service worker makes the site: MiniLM runs on threaded WASM.
const harness = useHarness({ site: 'isolated' });

describe('Embeddings page with real models', () => {
  it('says within a second of choosing BGE-small that it is not on this site', async () => {
    const tab = await harness.open('#/embeddings?device=wasm');
    const select = tab.page.getByRole('combobox', { name: 'Model' });
    await waitForEmbedReady(tab.page);
    const options = await select.locator('option').allTextContents();
    expect(options).toContain('bge-small-en-v1.5 — not on this site');
    expect(options).toContain('all-MiniLM-L6-v2');
    const started = Date.now();
    await select.selectOption('bge-small');
    const notice = tab.page.locator('[data-not-on-site]');
    await notice.waitFor({ timeout: 1_000 });
    console.info(`bge-small chosen → "not on this site" in ${Date.now() - started} ms`);
    expect(await notice.textContent()).toContain('bge-small-en-v1.5 (fp32) is not on this site');
    expect(await tab.page.getByRole('button', { name: 'Load model' }).isDisabled()).toBe(true);
    expect(tab.watch.foreignRequests(harness.site.origin)).toEqual([]);
    await tab.page.context().close();
  });

  // The whole LME-s set in Chromium with MiniLM is embed-real-parity's work (1,200 texts through
  // the same embedder); here the page's own run with the real model, until the reader cancels it.
  it('starts on MiniLM, shows the bytes as it loads, embeds LME-s turns with it and cancels', async () => {
    const tab = await harness.open('#/embeddings?device=wasm');
    const { page } = tab;
    const select = page.getByRole('combobox', { name: 'Model' });
    await waitForEmbedReady(page);
    expect(await select.inputValue()).toBe('minilm');
    const sawBytes = page
      .locator('[data-load-progress] progress')
      .waitFor({ timeout: 120_000 })
      .then(() => true);
    // Cancel from inside the page once 64 turns are stored, while MiniLM computes the next batch.
    await page.evaluate((least) => {
      const observer = new MutationObserver(() => {
        const el = document.querySelector('[data-embed-counts]');
        if (Number(el?.getAttribute('data-computed') ?? 0) < least) return;
        observer.disconnect();
        [...document.querySelectorAll('button')]
          .find((b) => b.textContent?.trim() === 'Cancel')
          ?.click();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    }, STORED_BEFORE_CANCEL);
    await page.getByRole('button', { name: EMBED_BUTTON }).click();
    expect(await sawBytes).toBe(true);
    await page.locator('[data-phase="cancelled"]').waitFor({ timeout: 600_000 });
    const c = await counts(page);
    console.info(`MiniLM on the Embeddings page: cancelled after ${c.computed} turns`);
    expect(c.computed).toBeGreaterThanOrEqual(STORED_BEFORE_CANCEL);
    expect(c.computed).toBeLessThan(486);
    expect(await cacheCount(page)).toBe(c.computed);
    expect(await page.locator('.device-panel [data-field="model"]').textContent()).toContain(
      'all-MiniLM-L6-v2',
    );
    expect(tab.watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(tab.failedResponses).toEqual([]);
    await page.context().close();
  }, 900_000);
});
