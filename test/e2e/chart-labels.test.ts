// No chart label cut: on the Overview, InMind, Reproduce (a run and a comparison's density grid) and
// the Playground, at a phone's width and a laptop's, every text Vega drew in a chart (axis labels,
// titles, legends, point labels) is whole, inside the chart's box, and clear of its neighbours.
// Charts are drawn as SVG (VegaChart's renderer), so the drawn `text` elements are read directly.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { chartsSettled } from '../support/page-state.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const watches: PageWatch[] = [];

interface View {
  name: string;
  hash: string;
  ready?: string;
}

const VIEWS: View[] = [
  { name: 'overview', hash: 'home' },
  { name: 'inmind', hash: 'inmind' },
  { name: 'reproduce', hash: 'reproduce?bench=inmind&ret=bm25', ready: '[data-phase="done"]' },
  {
    name: 'reproduce-compare',
    hash: 'reproduce?bench=inmind&ret=bm25&device=wasm&cmp=bm25,tiny-bert:fp32',
    ready: '[data-phase="compared"]',
  },
  { name: 'playground', hash: 'playground', ready: '[data-chart="playground-scores"]' },
  // No chart: for the screenshots only.
  { name: 'console', hash: 'console' },
];
const shots = process.env.MEMLENS_SCREENSHOTS_DIR ?? '';

/**
 * What is wrong with the charts' text: a label that ends in "…" (Vega's labelLimit cut it), one
 * drawn past the chart's box, or two labels of one mark drawn over or against each other
 * ("−100−90", "47.0%66.9%").
 */
function labelProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const visible = (t: SVGTextElement) =>
      Boolean(t.textContent?.trim()) &&
      t.getAttribute('opacity') !== '0' &&
      getComputedStyle(t).visibility !== 'hidden' &&
      t.getBoundingClientRect().width > 0;
    for (const figure of document.querySelectorAll<HTMLElement>('[data-chart]')) {
      const id = figure.dataset.chart ?? '?';
      const svg = figure.querySelector('.chart-canvas svg');
      if (!svg) continue;
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].filter(visible);
      for (const t of texts) {
        const words = t.textContent ?? '';
        const r = t.getBoundingClientRect();
        if (words.trimEnd().endsWith('…')) problems.push(`${id}: "${words}" is cut`);
        if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1)
          problems.push(`${id}: "${words}" is cut at the chart's edge`);
        if (r.bottom > box.bottom + 1) problems.push(`${id}: "${words}" is cut at the bottom`);
      }
      // Labels of one mark (an axis's ticks, a layer's point labels) drawn over each other.
      for (const group of svg.querySelectorAll('g.mark-text')) {
        const items = [...group.querySelectorAll(':scope > text')].filter(
          (t): t is SVGTextElement => t instanceof SVGTextElement && visible(t),
        );
        const rects = items.map((t) => t.getBoundingClientRect());
        for (let i = 0; i < rects.length; i++) {
          for (let j = i + 1; j < rects.length; j++) {
            const [a, b] = [rects[i], rects[j]];
            const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const overlapY = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            // On one line, closer than 2 px reads as one word.
            if (overlapX > -2 && overlapY > 1) {
              problems.push(
                `${id}: "${items[i].textContent}" and "${items[j].textContent}" run together`,
              );
            }
          }
        }
      }
    }
    return problems;
  });
}

async function open(width: number, height: number): Promise<Page> {
  const { page, watch } = await harness.open('#/home', {
    ready: '[data-sql-state="ready"]',
    timeout: 120_000,
    viewport: { width, height },
  });
  watches.push(watch);
  return page;
}

async function visit(page: Page, view: View): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), `#/${view.hash}`);
  await page.waitForSelector('main h1', { timeout: 60_000 });
  if (view.ready) await page.waitForSelector(view.ready, { timeout: 240_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await chartsSettled(page);
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  for (const figure of await page.locator('[data-chart]').all()) {
    const id = (await figure.getAttribute('data-chart')) ?? 'chart';
    await figure.screenshot({ path: path.join(shots, `${name}-${id}.png`) });
  }
}

describe('no chart label cut', () => {
  for (const [width, height] of [
    [390, 844],
    [1400, 900],
  ] as const) {
    it(`draws every chart's labels whole and apart at ${width} px`, async () => {
      const page = await open(width, height);
      const found: string[] = [];
      for (const view of VIEWS) {
        await visit(page, view);
        // A chart laid out again for its card draws twice: what must hold is the settled drawing.
        const problems = await expect
          .poll(() => labelProblems(page), { timeout: 10_000 })
          .toEqual([])
          .then(() => [])
          .catch(async () => labelProblems(page));
        found.push(...problems.map((p) => `${view.name} at ${width} px: ${p}`));
        if (shots) await screenshot(page, `${view.name}-${width}`);
      }
      await page.close();
      expect(found).toEqual([]);
    }, 900_000);
  }

  it('made no request outside the test server and logged no console error', () => {
    for (const w of watches) {
      expect(w.foreignRequests(harness.site.origin)).toEqual([]);
      expect(w.consoleErrors).toEqual([]);
    }
  });
});
