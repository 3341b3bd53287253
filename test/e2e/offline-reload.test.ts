import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import type { PrecacheManifest } from '../../src/lib/offline/precache.ts';
import { useHarness } from './harness.ts';

let root: string;
let manifest: PrecacheManifest;
// A server of its own: a test stops it.
const harness = useHarness();
let server: StaticServer;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;
let onlineFigures: Record<string, number> = {};

const RENDERED = '[data-chart] .chart-canvas[data-rendered="true"]';

beforeAll(async () => {
  root = await buildSite();
  manifest = JSON.parse(readFileSync(path.join(root, 'precache-manifest.json'), 'utf8'));
  server = await harness.serve({ root, base: E2E_BASE });
  context = await harness.context();
  ({ page, watch } = await harness.tab({ context }));
});

async function showPage(id: string, query = ''): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/${id}${query}`);
  await page.waitForFunction((pageId) => location.hash.startsWith(`#/${pageId}`), id);
}

async function pageIds(): Promise<string[]> {
  const hrefs = await page.$$eval('nav[aria-label="Pages"] a', (as) =>
    as.map((a) => a.getAttribute('href') ?? ''),
  );
  return hrefs.map((h) => h.replace(/^#\//, ''));
}

/** Waits until every table is loaded (the conversation benchmarks load with a page that reads them). */
async function allTablesLoaded(): Promise<void> {
  await showPage('mydata');
  await page.waitForSelector('[data-table-count="queries"]', { timeout: 120_000 });
}

/** Figures drawn on each page of the nav, counted once the count holds still and all are drawn. */
async function figuresPerPage(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const id of await pageIds()) {
    await showPage(id);
    await page.waitForSelector('main h1');
    let last = -1;
    for (;;) {
      const n = await page.evaluate(() => {
        const all = Array.from(document.querySelectorAll('[data-chart] .chart-canvas'));
        return all.every((c) => c.getAttribute('data-rendered') === 'true') ? all.length : -1;
      });
      if (n >= 0 && n === last) break;
      last = n;
      await page.waitForTimeout(750);
    }
    counts[id] = last;
    expect(await page.locator('main .error, body > .error').count(), id).toBe(0);
  }
  return counts;
}

/** The playground's rank cell for one retriever, once it holds a rank. */
async function rankOf(retriever: string, memory = 0): Promise<number> {
  const cell = page
    .locator(`[data-playground-ranks] tbody tr`)
    .nth(memory)
    .locator(`td[data-retriever="${retriever}"]`);
  await expect.poll(async () => cell.innerText(), { timeout: 120_000 }).toMatch(/^#\d+/);
  return Number((await cell.innerText()).match(/^#(\d+)/)?.[1]);
}

describe('offline: load once, cut the network, reload', () => {
  it('precaches the shell, the wasm runtimes, the results and the bundled data', async () => {
    await page.goto(`${server.url}#/inmind`);
    await page.waitForSelector(RENDERED, { timeout: 120_000 });
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    const readyAt = await page.evaluate(() => performance.now());
    const cached = await page.evaluate(async (version) => {
      const cache = await caches.open(`memlens-precache-${version}`);
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    }, manifest.version);
    expect(cached.sort()).toEqual(manifest.precache.map((e) => `${E2E_BASE}${e.url}`).sort());
    const groups = new Set(manifest.precache.map((e) => e.group));
    expect([...groups].sort()).toEqual(['data', 'engine', 'results', 'shell']);
    expect(manifest.precache.some((e) => /ort-wasm.*\.wasm$/.test(e.url))).toBe(true);
    expect(manifest.precache.some((e) => /duckdb-eh.*\.wasm$/.test(e.url))).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await allTablesLoaded();
    onlineFigures = await figuresPerPage();
    expect(Object.values(onlineFigures).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
    console.info(
      `precache: ${manifest.precache.length} files, ${(manifest.precacheBytes / 2 ** 20).toFixed(1)} MiB, build ${manifest.version}; ready ${readyAt.toFixed(0)} ms after navigation`,
    );
  });

  it('keeps tiny-bert in the runtime cache once the playground has used it', async () => {
    await showPage('playground', '?tiny=on');
    expect(await rankOf('bm25')).toBeGreaterThan(300);
    expect(await rankOf('tiny-bert')).toBeGreaterThan(0);
    await page.locator('.offline-status summary').click();
    await expect
      .poll(
        () =>
          page
            .locator('.offline-items li', { hasText: 'Model tiny-bert' })
            .getAttribute('data-ready'),
        {
          timeout: 60_000,
        },
      )
      .toBe('true');
    await page.locator('.offline-status summary').click();
  });

  it('reloads with no network: figures, every page, cached analyses and the playground', async () => {
    await server.close();
    const served = server.requests.length;
    await context.setOffline(true);
    await showPage('inmind');
    const started = Date.now();
    await page.reload();
    await page.waitForSelector(RENDERED, { timeout: 120_000 });
    const firstChart = await page.evaluate(() => performance.now());
    console.info(
      `offline reload → first chart: ${firstChart.toFixed(0)} ms (wall ${Date.now() - started} ms)`,
    );
    expect(server.requests.length).toBe(served);
    await expect
      .poll(() => page.locator('.offline-headline').innerText(), { timeout: 30_000 })
      .toBe('Offline: using the saved copy');
    const bars = await page.$$eval(
      '[data-chart="inmind-table1"] [aria-roledescription="bar"]',
      (els) => els.length,
    );
    expect(bars).toBeGreaterThan(10);

    await allTablesLoaded();

    // Every page in the registry draws the figures it drew online, error-free.
    const offline = await figuresPerPage();
    console.info(`offline figures per page: ${JSON.stringify(offline)}`);
    expect(offline).toEqual(onlineFigures);

    // Cached analysis: the background vectors tiny-bert computed online come from IndexedDB.
    await showPage('embeddings', '?model=tiny-bert');
    await page.getByRole('button', { name: /Embed the 486/ }).click();
    const counts = page.locator('[data-embed-counts]');
    await expect.poll(() => counts.getAttribute('data-done'), { timeout: 120_000 }).toBe('486');
    expect(Number(await counts.getAttribute('data-cached'))).toBe(486);

    // The playground: BM25 and tiny-bert, on a new case, with no network.
    await showPage('playground', '?case=i-485&qv=naive&tiny=on');
    expect(await rankOf('bm25')).toBeGreaterThan(0);
    expect(await rankOf('tiny-bert')).toBeGreaterThan(0);
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(server.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
