// Issue 24's small things, each as a reader meets it: the overview list in the chart's unit,
// Reproduce's run controls (a new protocol clears the old brush and pick; keyboard browsing of a
// select starts nothing until Enter), focus after a nav link, no Vega "Infinite extent" warning,
// and each paper page's way to its Reproduce protocols. One build, one browser, small inputs.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { showView } from '../lib/protocols/page-helpers.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
/** Every console warning, with the page it was logged on. */
const warnings: { page: string; text: string }[] = [];

beforeAll(async () => {
  ({ page, watch } = await harness.tab({ viewport: { width: 1400, height: 900 } }));
  page.on('console', (msg) => {
    if (msg.type() === 'warning') {
      warnings.push({ page: new URL(page.url()).hash.split('?')[0], text: msg.text() });
    }
  });
});

/** Reproduce's Benchmark select (the one offering InMind). */
const BENCH_SELECT = '.reproduce-controls select:has(option[value="inmind"])';
/** Reproduce's Retriever / model select. */
const RETRIEVER_SELECT = '.reproduce-controls select:has(option[value="bm25"])';
const hash = () => page.evaluate(() => location.hash);
const param = (name: string) =>
  page.evaluate((n) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(n), name);

describe('the overview lists each point in the unit of its chart', () => {
  it('says LoCoMo-Conv\'s response quality in %, not ".669" beside a chart in %', async () => {
    await page.goto(`${harness.site.url}#/home`);
    const item = page.locator('.paper-links li', { hasText: 'LoCoMo-Conv' });
    await expect.poll(() => item.innerText(), { timeout: 60_000 }).toMatch(/response quality/);
    const text = await item.innerText();
    expect(text).toMatch(/Dialog-style query: response quality: \d+\.\d% \(printed \.\d+\)/);
    expect(text).not.toMatch(/: \.\d|× 100/);
  });
});

describe('moving to another page', () => {
  it("takes focus from the nav link to the new page's main heading", async () => {
    await page.goto(`${harness.site.url}#/home`);
    await page.locator('nav[aria-label="Pages"] a[href="#/inmind"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#inmind-title');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id ?? ''))
      .toBe('inmind-title');
    // Tab goes on from the heading into the page, not back along the nav.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  });
});

describe("each paper page's way to Reproduce", () => {
  it('links LoCoMo-Conv and InMind to their protocols; MemUse and UtilMem say they have none', async () => {
    const links = page.locator('[data-reproduce-links]');
    const hrefs = () =>
      links.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    await page.goto(`${harness.site.url}#/locomo-conv`);
    await expect.poll(hrefs).toEqual(['#/reproduce?bench=locomo-conv']);
    await page.goto(`${harness.site.url}#/inmind`);
    await expect
      .poll(hrefs)
      .toEqual(['#/reproduce?bench=inmind', '#/reproduce?bench=inmind-figure4']);
    for (const id of ['memuse', 'utilmem']) {
      await page.goto(`${harness.site.url}#/${id}`);
      await expect.poll(() => links.count(), { message: id }).toBe(1);
      expect(await links.innerText(), id).toMatch(
        /^No Reproduce protocol: MemLens does not recompute/,
      );
      expect(await links.locator('a').count(), id).toBe(0);
    }
  });
});

describe('Reproduce: a new protocol starts from a clean view', () => {
  it("clears the old run's brush, picked memory and open query", async () => {
    const old = 'bench=locomo&ret=bm25&brush=0.1,0.2&bseries=naive&mem=m:0:1&q=conv-26:q0';
    await page.goto(`${harness.site.url}#/reproduce?${old}`);
    await page.locator(BENCH_SELECT).selectOption('inmind');
    await page.waitForFunction(() => location.hash.includes('bench=inmind'));
    for (const name of ['brush', 'bseries', 'mem', 'q']) expect(await param(name), name).toBeNull();
  });
});

describe('Reproduce: browsing a select with the keyboard starts no run', () => {
  it('ArrowDown on the Retriever select changes nothing until Enter; Escape goes back', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25' });
    const select = page.locator(RETRIEVER_SELECT);
    const before = await hash();
    await select.focus();
    await page.keyboard.press('ArrowDown');
    expect(await select.inputValue()).not.toBe('bm25');
    await page.locator('[data-browse-hint]').waitFor();
    expect(await hash()).toBe(before);
    await page.keyboard.press('Escape');
    expect(await select.inputValue()).toBe('bm25');
    expect(await page.locator('[data-browse-hint]').count()).toBe(0);
    await page.keyboard.press('End');
    const last = await select.inputValue();
    expect(await hash()).toBe(before);
    await page.keyboard.press('Enter');
    await expect.poll(() => param('ret')).toBe(last);
  });
});

describe('Playground: browsing the cases with the keyboard keeps the typed texts', () => {
  it('ArrowDown on the Case select replaces nothing until Enter', async () => {
    const typed = new URLSearchParams({ case: 'custom', mem: 'I keep bees.', q: 'Picnic ideas?' });
    await page.goto(`${harness.site.url}#/playground?${typed.toString()}`);
    const memories = page.locator('[data-playground-memories]');
    await expect.poll(() => memories.inputValue(), { timeout: 60_000 }).toBe('I keep bees.');
    const before = await hash();
    await page.locator('[data-playground-case]').focus();
    await page.keyboard.press('ArrowUp');
    await page.locator('[data-browse-hint]').waitFor();
    expect(await hash()).toBe(before);
    expect(await memories.inputValue()).toBe('I keep bees.');
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-playground-case]').inputValue()).toBe('custom');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => param('case')).toBe('locomo-direct');
    expect(await param('mem')).toBeNull();
  });
});

describe('Vega draws without "Infinite extent" warnings', () => {
  it('on InMind (tasks per domain before its rows) and the Reproduce map (no query picked)', async () => {
    await page.goto(`${harness.site.url}#/inmind`);
    await page.waitForSelector('[data-chart="inmind-domains"] .chart-canvas[data-rendered]', {
      timeout: 120_000,
    });
    await showView(
      page,
      harness.site.url,
      { bench: 'inmind', ret: 'tiny-bert' },
      { device: 'wasm' },
    );
    await page.waitForSelector(
      '.embedding-map[data-map-state="ready"] [data-chart="reproduce-map"] .chart-canvas[data-rendered]',
      { timeout: 120_000 },
    );
    const infinite = warnings.filter((w) => w.text.includes('Infinite extent'));
    console.info(
      `console warnings in this file: ${warnings.length}, "Infinite extent": ${infinite.length}`,
    );
    expect(infinite).toEqual([]);
  });
});

describe('the embedding map from the keyboard, in words', () => {
  const MAP = '[data-chart="reproduce-map"] .chart-canvas';

  it('lights a typed score range, picks a lit memory with Enter and names it in words', async () => {
    // The map of the previous block: InMind, tiny-bert, no query open.
    await page.locator('[data-range-from]').fill('-1');
    await page.locator('[data-range-to]').fill('1');
    await page.locator('[data-range-series]').selectOption('naive');
    await page.locator('[data-range-to]').press('Enter');
    await expect.poll(() => param('brush')).toBe('-1.0000,1.0000');
    expect(await param('bseries')).toBe('naive');
    await expect
      .poll(() => page.locator('.embedding-map').getAttribute('data-map-lit'))
      .not.toBe('0');
    const first = page.locator('[data-memory-list="lit"] button').first();
    await first.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => param('mem')).toMatch(/^m:/);
    const heading = await page.locator('[data-picked-memory] h4').innerText();
    expect(heading).toMatch(/^Target memory of \d+:naive/);
    expect(heading).not.toMatch(/target memory target/i);
  });

  it("says a point's text and score in its tooltip, not 'id: target, score: null'", async () => {
    await page.locator('[data-range-to]').fill('');
    await page.locator('[data-range-to]').press('Enter');
    await page.getByRole('alert').filter({ hasText: '"to" must be a number' }).waitFor();
    const point = await page.$$eval(`${MAP} [aria-label^="memory | target memory"]`, (els) => {
      const r = els[0].getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    await page.mouse.move(point.x, point.y);
    const tip = page.locator('#vg-tooltip-element');
    await expect.poll(() => tip.innerText(), { timeout: 10_000 }).toMatch(/point/);
    const text = await tip.innerText();
    expect(text).toMatch(/Target memory of \d+:/);
    expect(text).not.toMatch(/null/);
  });

  it('colours by group (InMind: domain), kept in the URL', async () => {
    await page.locator('[data-map-color]').selectOption('group');
    await expect.poll(() => param('mapcolor')).toBe('group');
    await page.waitForSelector(`.embedding-map[data-map-state="ready"] ${MAP}[data-rendered]`);
    const legend = () =>
      page.$$eval(`${MAP} .role-legend-label text`, (els) => els.map((e) => e.textContent));
    await expect.poll(legend).toContain('background (no group)');
    expect(await legend()).not.toContain('target memory');
  });
});

describe('the whole file', () => {
  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
