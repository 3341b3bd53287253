// Every page at a phone's width and a laptop's: no sideways scroll, a nav that fits or folds, every
// chart inside its card and using it, no text clipped by a box that hides it or scrolls without a
// cue (from the DOM, and from a screenshot of each chart's card); with MEMLENS_SCREENSHOTS_DIR, a
// screenshot of each view for docs/screenshots/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { navEntries } from '../../src/lib/app/nav.ts';
import { chartsSettled } from '../support/page-state.ts';
import { decodePng, pixelAt } from '../support/png.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const watches: PageWatch[] = [];
const PAGE_IDS = navEntries().map((e) => e.id);
const shots = process.env.MEMLENS_SCREENSHOTS_DIR ?? '';

interface View {
  name: string;
  hash: string;
  /** What the view shows once its work is done (a Reproduce run). */
  ready?: string;
}

/** Every nav page, and Reproduce's Figure 4, map and comparison views (BM25 and the test model). */
const VIEWS: View[] = [
  ...PAGE_IDS.map((id) => ({
    name: id,
    hash: id,
    ready: id === 'reproduce' ? '[data-phase="done"]' : undefined,
  })),
  {
    name: 'reproduce-figure4',
    hash: 'reproduce?bench=inmind-figure4&ret=bm25',
    ready: '[data-phase="done"] [data-figure4]',
  },
  {
    // A dense run: the histogram beside the embedding map (the test model, embedded here).
    name: 'reproduce-tiny-bert',
    hash: 'reproduce?bench=inmind&ret=tiny-bert&device=wasm',
    ready:
      '[data-phase="done"] .embedding-map[data-map-state="ready"] [data-chart="reproduce-map"] .chart-canvas[data-rendered]',
  },
  {
    name: 'reproduce-compare',
    hash: 'reproduce?bench=inmind&ret=bm25&device=wasm&cmp=bm25,tiny-bert:fp32',
    ready: '[data-phase="compared"]',
  },
];

/** The least share of its card a chart's drawing takes (a facet or stack that did not fill it). */
const MIN_SHARE = 0.6;
/** The least share of its card a single view's plot takes (beside its axis labels and titles). */
const MIN_PLOT = 0.35;
/** How long a layout may take to settle after the view's charts have drawn. */
const SETTLE_MS = 15_000;
/** A committed screenshot shows the top of a page, this many viewport heights at most. */
const SHOT_SCREENS = { 390: 6, 1366: 1, 1400: 4 } as const;

beforeAll(async () => {
  if (shots) mkdirSync(shots, { recursive: true });
});

async function open(width: number, height: number): Promise<Page> {
  const { page, watch } = await harness.open('#/home', {
    ready: '[data-sql-state="ready"]',
    timeout: 120_000,
    viewport: { width, height },
  });
  watches.push(watch);
  return page;
}

async function visit(page: Page, id: string, ready?: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/${id}`);
  await page.waitForSelector(`main h1`, { timeout: 60_000 });
  if (ready) await page.waitForSelector(ready, { timeout: 240_000 });
  // Charts and tables settle after their queries answer.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await chartsSettled(page);
}

const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth };
  });

/**
 * What the DOM says is wrong with the layout: a chart wider than its card, outside the viewport,
 * using less than `minShare` of its card or with a plot squeezed by its labels; a box that clips text (overflow hidden) or scrolls
 * sideways without the shadow cue (styles.css).
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(
    ([minShare, minPlot]) => {
      const problems: string[] = [];
      for (const figure of document.querySelectorAll<HTMLElement>('[data-chart]')) {
        const id = figure.dataset.chart ?? '?';
        const card = figure.querySelector<HTMLElement>('.chart-canvas');
        const drawn = card?.querySelector('svg, canvas');
        if (!card || !drawn) {
          problems.push(`${id}: not drawn`);
          continue;
        }
        const box = drawn.getBoundingClientRect();
        const room = card.clientWidth;
        if (box.width > room + 1) problems.push(`${id}: ${box.width} px in a ${room} px card`);
        if (box.width < minShare * room)
          problems.push(`${id}: ${box.width} px of a ${room} px card`);
        // A single or layered view's plot (facets and stacks have none of their own).
        const plot = Number(card.dataset.plotWidth);
        if (card.dataset.plotWidth !== undefined && plot < minPlot * room) {
          problems.push(
            `${id}: a plot ${plot} px wide in a ${room} px card (labels and titles took the rest)`,
          );
        }
        // Text Vega placed outside its own SVG (a second legend beside the first) is cut off.
        for (const text of drawn.querySelectorAll('text')) {
          const r = text.getBoundingClientRect();
          if (!text.textContent?.trim() || text.getAttribute('opacity') === '0') continue;
          if (r.right > box.right + 1 || r.left < box.left - 1) {
            problems.push(`${id}: "${text.textContent}" drawn outside the chart's box`);
          }
        }
        if (box.left < 0 || box.right > window.innerWidth + 0.5) {
          problems.push(`${id}: drawn from ${box.left} to ${box.right} px, outside the viewport`);
        }
      }
      for (const el of document.querySelectorAll<HTMLElement>('main *')) {
        if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0) continue;
        if (el.matches('input, textarea, select')) continue;
        const style = getComputedStyle(el);
        const what = `${el.tagName.toLowerCase()}.${el.className || '-'} (${el.clientWidth} of ${el.scrollWidth} px shown)`;
        if (/hidden|clip/.test(style.overflowX) && style.textOverflow !== 'ellipsis') {
          problems.push(`${what} clips its text`);
        } else if (
          /auto|scroll/.test(style.overflowX) &&
          !style.backgroundImage.includes('gradient')
        ) {
          problems.push(`${what} scrolls sideways without a cue`);
        }
      }
      return problems;
    },
    [MIN_SHARE, MIN_PLOT] as const,
  );
}

/**
 * From a screenshot of each chart's card: the strip of the card right of the chart is blank
 * (one colour), so nothing drawn spills past the chart's box or is cut at the card's edge.
 */
async function spilledCharts(page: Page): Promise<string[]> {
  const spilled: string[] = [];
  for (const figure of await page.locator('[data-chart]').all()) {
    const id = (await figure.getAttribute('data-chart')) ?? '?';
    const [outer, inner] = await Promise.all([
      figure.boundingBox(),
      figure.locator('.chart-canvas').boundingBox(),
    ]);
    if (!outer || !inner) continue;
    const shot = decodePng(await figure.screenshot());
    const scale = shot.width / outer.width;
    const left = Math.ceil((inner.x + inner.width - outer.x) * scale) + 1;
    const right = Math.floor((outer.width - 2) * scale) - 1;
    const top = Math.ceil((inner.y - outer.y) * scale);
    const bottom = Math.min(shot.height, Math.floor((inner.y + inner.height - outer.y) * scale));
    const colours = new Set<string>();
    for (let y = top; y < bottom; y += 2) {
      for (let x = left; x < right; x++) colours.add(pixelAt(shot, x, y));
    }
    if (colours.size > 1) spilled.push(`${id}: ${colours.size} colours right of the chart`);
  }
  return spilled;
}

async function screenshot(page: Page, name: string, width: 390 | 1366 | 1400): Promise<void> {
  if (!shots) return;
  const { height } = page.viewportSize() ?? { height: 900 };
  // From the top: the charts' screenshots scrolled the page, and sticky table heads follow it.
  const full = await page.evaluate(() => {
    window.scrollTo(0, 0);
    return document.documentElement.scrollHeight;
  });
  await page.screenshot({
    path: path.join(shots, `${name}-${width}.png`),
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.min(full, SHOT_SCREENS[width] * height) },
  });
}

describe('every view at 390 and 1400 px', () => {
  for (const [width, height] of [
    [390, 844],
    [1400, 900],
  ] as const) {
    it(`keeps each chart in its card and using it, and clips no text, at ${width} px`, async () => {
      const page = await open(width, height);
      for (const view of VIEWS) {
        await visit(page, view.hash, view.ready);
        const { scrollWidth, innerWidth } = await overflow(page);
        expect(scrollWidth, `${view.name} at ${width} px`).toBeLessThanOrEqual(innerWidth);
        // A chart laid out again (its fit corrected, or a scroll bar came) spills for a frame:
        // what must hold is the settled layout, so each check waits for it, within a bound.
        await expect
          .poll(() => layoutProblems(page), {
            message: `${view.name} at ${width} px`,
            timeout: SETTLE_MS,
          })
          .toEqual([]);
        await expect
          .poll(() => spilledCharts(page), {
            message: `${view.name} at ${width} px`,
            timeout: SETTLE_MS,
          })
          .toEqual([]);
        await screenshot(page, view.name, width);
      }
      await page.close();
    });
  }
});

describe('narrow screens', () => {
  it('never scrolls sideways at 360 px, on any page', async () => {
    const page = await open(360, 800);
    for (const id of PAGE_IDS) {
      await visit(page, id);
      const { scrollWidth, innerWidth } = await overflow(page);
      expect(scrollWidth, `${id} at 360 px`).toBeLessThanOrEqual(innerWidth);
    }
    await page.close();
  });

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
});

describe('a projector (1366×768)', () => {
  it('shows each walk step’s words with the ranks beside them, without scrolling', async () => {
    const page = await open(1366, 768);
    await visit(page, 'playground?step=1');
    for (let step = 1; step <= 5; step++) {
      await page.waitForSelector(`[data-walk-step="${step}"]`);
      // Step 5 empties the texts for the reader's own: its column says what to type instead.
      const ranks = step < 5 ? '[data-playground-ranks]' : '.walk-ranks';
      await page.waitForSelector(ranks);
      const [text, table] = await Promise.all(
        ['[data-walk-text]', ranks].map((s) => page.locator(s).boundingBox()),
      );
      if (!text || !table) throw new Error(`step ${step}: the walk or its ranks not laid out`);
      const where = `step ${step}: words ${JSON.stringify(text)}, ranks ${JSON.stringify(table)}`;
      expect(table.x, where).toBeGreaterThanOrEqual(text.x + text.width);
      expect(table.y, where).toBeLessThan(text.y + text.height);
      expect(table.y, where).toBeGreaterThanOrEqual(0);
      expect(table.y + table.height, where).toBeLessThanOrEqual(768);
      expect(table.x + table.width, where).toBeLessThanOrEqual(1366);
      if (shots && step === 1) await screenshot(page, 'playground-walk', 1366);
      if (step < 5) await page.getByRole('button', { name: 'Next' }).click();
    }
    await page.close();
  }, 300_000);
});

describe('requests and console', () => {
  it('made no request outside the test server and logged no console error', () => {
    expect(watches.length).toBeGreaterThan(0);
    for (const w of watches) {
      expect(w.foreignRequests(harness.site.origin)).toEqual([]);
      expect(w.consoleErrors).toEqual([]);
    }
  });
});
