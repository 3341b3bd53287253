// The site in Firefox (Debian's firefox-esr over WebDriver BiDi), as readers outside Chromium meet
// it: every page renders with no page error and no request off the origin, MiniLM on WASM ranks
// the Playground's memories exactly as Chromium does, and a reload with the server gone works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE } from '../../scripts/lib/site-build.ts';
import { launchFirefox, watchFirefoxPage, type FirefoxWatch } from '../support/firefox.ts';
import { useHarness } from './harness.ts';

// MiniLM's vectors for the Playground's background (the Playground's own site): the page embeds
// only the typed texts.
const harness = useHarness({
  site: { packs: { models: ['minilm'], dtypes: ['fp32'], protocols: ['inmind?bg=content'] } },
});
let firefox: Browser;
let page: Page;
let watch: FirefoxWatch;
/** A server of this file's own for the offline case, closed there. */
let own: StaticServer | null = null;

beforeAll(async () => {
  firefox = await launchFirefox();
  page = await firefox.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  watch = watchFirefoxPage(page);
  await page.goto(`${harness.site.url}#/`);
});

afterAll(async () => {
  await firefox?.close();
});

async function show(hash: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.waitForFunction((h) => location.hash === h, {}, hash);
  await page.waitForSelector('main h1');
}

/** Charts on the page once every one is drawn and their number holds still. */
async function drawnCharts(): Promise<number> {
  let last = -1;
  for (;;) {
    const n = await page.evaluate(() => {
      const all = Array.from(document.querySelectorAll('[data-chart] .chart-canvas'));
      return all.every((c) => c.getAttribute('data-rendered') === 'true') ? all.length : -1;
    });
    if (n >= 0 && n === last) return n;
    last = n;
    await new Promise((resolve) => setTimeout(resolve, 750));
  }
}

const MINILM_CELLS = '[data-playground-ranks] tbody td[data-retriever="minilm"]';

/** The Playground's MiniLM cells (`#rank · score`) for the default case, once all hold a rank. */
async function minilmRanks(p: Pick<Page, 'evaluate'>): Promise<string[]> {
  for (let tries = 0; tries < 600; tries++) {
    const cells = await p.evaluate(
      (sel) => Array.from(document.querySelectorAll(sel), (td) => td.textContent?.trim() ?? ''),
      MINILM_CELLS,
    );
    if (cells.length > 0 && cells.every((c) => /^#\d+ · /.test(c))) return cells;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('MiniLM ranks did not appear within 300 s');
}

describe('Firefox', () => {
  it('renders every page of the nav with its charts, no error on the page', async () => {
    await page.waitForSelector('[data-sql-state="ready"]', { timeout: 120_000 });
    const ids = await page.$$eval('nav[aria-label="Pages"] a', (as) =>
      as.map((a) => (a.getAttribute('href') ?? '').replace(/^#\//, '')),
    );
    expect(ids.length).toBeGreaterThan(5);
    const charts: Record<string, number> = {};
    for (const id of ids) {
      await show(`#/${id}`);
      charts[id] = await drawnCharts();
      const text = await page.$eval('main', (m) => m.textContent ?? '');
      expect(text, id).not.toMatch(/Catalog Error|could not be loaded/);
      expect(await page.$$eval('main .error, body > .error', (e) => e.length), id).toBe(0);
    }
    console.info(`Firefox charts per page: ${JSON.stringify(charts)}`);
    expect(Object.values(charts).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
  });

  it('ranks the Playground with MiniLM on WASM exactly as Chromium does', async () => {
    await show('#/playground?r=minilm');
    const inFirefox = await minilmRanks(page);
    const chromium = await harness.open('#/playground?r=minilm');
    expect(await minilmRanks(chromium.page)).toEqual(inFirefox);
    console.info(`MiniLM in Firefox and Chromium: ${inFirefox.join(', ')}`);
  });

  it('reloads with the server gone, from its saved copy', async () => {
    own = await harness.serve({ root: harness.root, base: E2E_BASE, crossOriginIsolated: true });
    await page.goto(`${own.url}#/inmind`);
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    await own.close();
    const served = own.requests.length;
    await page.reload();
    await page.waitForSelector('[data-chart] .chart-canvas[data-rendered="true"]', {
      timeout: 120_000,
    });
    await page.waitForFunction(
      () =>
        document.querySelector('.offline-headline')?.textContent ===
        'Offline: using the saved copy',
      { timeout: 30_000 },
    );
    expect(own.requests.length).toBe(served);
  });

  it('made no request outside the sites it opened and logged no error', () => {
    const origins = [harness.site.origin, own?.origin ?? harness.site.origin];
    expect(watch.foreignRequests(origins)).toEqual([]);
    expect(watch.errors).toEqual([]);
  });
});
