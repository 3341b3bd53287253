// Shared by the embed-*.test.ts end-to-end tests.
import type { Browser, Page } from 'playwright-core';
import { watchPage, type PageWatch } from '../../../scripts/lib/chromium.ts';

export interface WatchedPage {
  page: Page;
  watch: PageWatch;
  /** `status url` of every response ≥ 400, to name what a console 404 was about. */
  failedResponses: string[];
}

/** A page in a fresh browser context (its own, empty IndexedDB). */
export async function openWatched(browser: Browser, url: string): Promise<WatchedPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const watch = watchPage(page);
  const failedResponses: string[] = [];
  context.on('response', (res) => {
    if (res.status() >= 400) failedResponses.push(`${res.status()} ${res.url()}`);
  });
  await page.goto(url);
  return { page, watch, failedResponses };
}

export const EMBED_BUTTON = /^Embed the \d+ LME-s background turns$/;

/** Waits until the LME-s turns are in DuckDB and the embedder is ready. */
export async function waitForEmbedReady(page: Page): Promise<void> {
  await page.getByRole('button', { name: EMBED_BUTTON }).and(page.locator(':enabled')).waitFor({
    timeout: 120_000,
  });
}

export async function counts(page: Page): Promise<Record<string, number>> {
  return page.locator('[data-embed-counts]').evaluate((el) => ({
    done: Number(el.getAttribute('data-done')),
    cached: Number(el.getAttribute('data-cached')),
    computed: Number(el.getAttribute('data-computed')),
    modelCalls: Number(el.getAttribute('data-model-calls')),
  }));
}

export async function cacheCount(page: Page): Promise<number> {
  const value = await page.locator('.device-panel').getAttribute('data-cache-count');
  return Number(value);
}

/** Counts the stored vectors straight from IndexedDB, not through the page's UI. */
export async function storedVectors(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('memlens-vectors');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('vectors').objectStore('vectors').count();
          request.onsuccess = () => {
            db.close();
            resolve(request.result);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}
