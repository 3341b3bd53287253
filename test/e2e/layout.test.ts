// Every page at a phone's width and a laptop's: no sideways scroll, a nav that fits or folds,
// and (with MEMLENS_SCREENSHOTS_DIR) a screenshot of each for docs/screenshots/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchPage, type PageWatch } from '../../scripts/lib/chromium.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import { navEntries } from '../../src/lib/app/nav.ts';
import { chartsSettled } from '../support/page-state.ts';

let server: StaticServer;
let browser: Browser;
const watches: PageWatch[] = [];
const PAGE_IDS = navEntries().map((e) => e.id);
const shots = process.env.MEMLENS_SCREENSHOTS_DIR ?? '';

beforeAll(async () => {
  server = await serveStatic({ root: await buildSite(), base: E2E_BASE });
  browser = await launchChromium();
  if (shots) mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  watches.push(watchPage(page));
  await page.goto(`${server.url}#/home`);
  await page.waitForSelector('[data-sql-state="ready"]', { timeout: 120_000 });
  return page;
}

async function visit(page: Page, id: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/${id}`);
  await page.waitForSelector(`main h1`, { timeout: 60_000 });
  // Charts and tables settle after their queries answer.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await chartsSettled(page);
}

const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth };
  });

describe('narrow screens', () => {
  for (const width of [390, 360]) {
    it(`never scrolls sideways at ${width} px, on any page`, async () => {
      const page = await open(width, 844);
      for (const id of PAGE_IDS) {
        await visit(page, id);
        const { scrollWidth, innerWidth } = await overflow(page);
        expect(scrollWidth, `${id} at ${width} px`).toBeLessThanOrEqual(innerWidth);
        if (shots && width === 390) {
          await page.screenshot({ path: path.join(shots, `${id}-390.png`), fullPage: true });
        }
      }
      await page.close();
    });
  }

  it('folds the nav behind a Menu button that opens and closes it', async () => {
    const page = await open(390, 844);
    const nav = page.locator('#site-nav');
    const toggle = page.getByRole('button', { name: 'Menu' });
    expect(await nav.isVisible()).toBe(false);
    await toggle.click();
    expect(await page.locator('.nav-toggle').getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Benchmarks' }).click();
    await page.waitForURL(/#\/benchmarks/);
    expect(await nav.isVisible()).toBe(false);
    await page.close();
  });
});

describe('wide screens', () => {
  it('fits the nav on one line at 1280 px', async () => {
    const page = await open(1280, 900);
    const tops = await page.$$eval('#site-nav a', (links) =>
      links.map((a) => Math.round(a.getBoundingClientRect().top)),
    );
    expect(tops).toHaveLength(PAGE_IDS.length);
    expect(new Set(tops).size).toBe(1);
    expect(await page.locator('.nav-toggle').isVisible()).toBe(false);
    const { scrollWidth, innerWidth } = await overflow(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.close();
  });

  it('does not scroll sideways at 1400 px', async () => {
    const page = await open(1400, 900);
    for (const id of PAGE_IDS) {
      await visit(page, id);
      const { scrollWidth, innerWidth } = await overflow(page);
      expect(scrollWidth, `${id} at 1400 px`).toBeLessThanOrEqual(innerWidth);
      if (shots)
        await page.screenshot({ path: path.join(shots, `${id}-1400.png`), fullPage: true });
    }
    await page.close();
  });
});

describe('requests and console', () => {
  it('made no request outside the test server and logged no console error', () => {
    expect(watches.length).toBeGreaterThan(0);
    for (const w of watches) {
      expect(w.foreignRequests(server.origin)).toEqual([]);
      expect(w.consoleErrors).toEqual([]);
    }
  });
});
