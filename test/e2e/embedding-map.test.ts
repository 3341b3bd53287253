// The Reproduce page's embedding map with tiny-bert (or MEMLENS_MAP_MODEL) on InMind: every
// memory drawn, a histogram brush lighting points up, a click opening the query, the state in
// the URL across a reload and back, the projection cached beside the vectors, a memory picked from
// the keyboard, the view updated in place on a pick; axe and a phone's width.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { openSiteCatalog } from '../../scripts/reproduce.ts';
import { showView } from '../lib/protocols/page-helpers.ts';
import { seriousViolations } from './axe.ts';
import { resizedTo } from '../support/page-state.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
let memories = 0;
/** Points lit by the brush with no query selected (the target pairs in range). */
let litTargets = '';

/** tiny-bert keeps CI fast; MEMLENS_MAP_MODEL=minilm measures the real model's 384 dimensions. */
const MODEL = process.env.MEMLENS_MAP_MODEL ?? 'tiny-bert';
const MAP = '[data-chart="reproduce-map"] .chart-canvas';
const READY = '.embedding-map[data-map-state="ready"]';

beforeAll(async () => {
  const { catalog, close } = await openSiteCatalog(path.join(repoRoot, 'public'));
  const [bg] = await catalog.query('SELECT count(*) AS n FROM lme_background');
  const [tasks] = await catalog.query('SELECT count(*) AS n FROM inmind_tasks');
  // The 486 background turns are shared by every task's corpus; each task adds its one target.
  memories = Number(bg.n) + Number(tasks.n);
  await close();
  ({ page, watch } = await harness.tab({ viewport: { width: 1400, height: 900 } }));
});

const labels = (prefix: string) =>
  page.$$eval(`${MAP} [aria-label^="${prefix}"]`, (els) =>
    els.map((e) => e.getAttribute('aria-label') ?? ''),
  );

async function mapReady(method = 'pca'): Promise<void> {
  await page.waitForSelector(`${READY}[data-map-method="${method}"] ${MAP}[data-rendered]`, {
    timeout: 120_000,
  });
}

/** With MEMLENS_SCREENSHOTS_DIR, the map and histogram for docs/screenshots/. */
async function shoot(file: string): Promise<void> {
  const dir = process.env.MEMLENS_SCREENSHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.locator('.map-row').screenshot({ path: path.join(dir, file) });
}

/** The point (by aria-label prefix) farthest from any other: a click there can only mean it. */
function isolatedPoint(prefix: string): Promise<{ label: string; x: number; y: number }> {
  return page.$$eval(
    `${MAP} [aria-label]`,
    (els, want) => {
      const points = els
        .map((e) => {
          const r = e.getBoundingClientRect();
          const label = e.getAttribute('aria-label') ?? '';
          return { label, x: r.left + r.width / 2, y: r.top + r.height / 2 };
        })
        .filter((p) => p.label.startsWith('query |') || p.label.startsWith('memory |'));
      let best = { label: '', x: 0, y: 0, gap: -1 };
      for (const p of points) {
        if (!p.label.startsWith(want)) continue;
        let gap = Infinity;
        for (const o of points) if (o !== p) gap = Math.min(gap, Math.hypot(o.x - p.x, o.y - p.y));
        if (gap > best.gap) best = { ...p, gap };
      }
      return best;
    },
    prefix,
  );
}

/** Marks the map's SVG root; a re-embedded chart draws a new one. */
const tagSvg = () => page.$eval(`${MAP} svg`, (svg) => svg.setAttribute('data-e2e-root', ''));
const sameSvg = async () => (await page.locator(`${MAP} svg[data-e2e-root]`).count()) === 1;

const attr = (name: string) =>
  page
    .locator('.embedding-map')
    .getAttribute(name)
    .then((v) => v ?? '');
const param = (name: string) =>
  page.evaluate((n) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(n), name);

describe('embedding map on the Reproduce page', () => {
  it('draws every InMind memory of the run, and every query', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: MODEL }, { device: 'wasm' });
    await mapReady();
    expect(memories).toBe(611);
    expect(await labels('memory |')).toHaveLength(memories);
    expect(await attr('data-map-memories')).toBe(String(memories));
    expect(await labels('query |')).toHaveLength(Number(await attr('data-map-queries')));
    expect((await labels('memory | target memory')).length).toBe(memories - 486);
    const ms = await page.locator('[data-field="projection-ms"]').getAttribute('data-ms');
    console.log(`PCA of ${memories} memories + 250 queries (${MODEL}) in the worker: ${ms} ms`);
  });

  it('lights up points when a score range is brushed on the histogram', async () => {
    expect(await labels('memory | target memory | target | lit')).toHaveLength(0);
    await page
      .locator('[data-chart="reproduce-similarity"] .chart-canvas')
      .scrollIntoViewIfNeeded();
    const boxes = await page.$$eval(
      '[data-chart="reproduce-similarity"] .chart-canvas [aria-label^="indirect | target |"]',
      (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { left: r.left, right: r.right, bottom: r.bottom };
        }),
    );
    expect(boxes.length).toBeGreaterThan(0);
    const left = Math.min(...boxes.map((b) => b.left));
    const right = Math.max(...boxes.map((b) => b.right));
    const y = Math.max(...boxes.map((b) => b.bottom)) - 4;
    await page.mouse.move(left + 2, y);
    await page.mouse.down();
    await page.mouse.move((left + right) / 2, y, { steps: 5 });
    await page.mouse.move(right - 2, y, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => /[?&]brush=/.test(location.hash), null, { timeout: 10_000 });
    await page.waitForSelector(`${READY}:not([data-map-lit="0"]) ${MAP}[data-rendered]`);
    litTargets = await attr('data-map-lit');
    const lit = Number(litTargets);
    const litLabels = (await labels('memory |'))
      .concat(await labels('query |'))
      .filter((l) => l.includes('| lit'));
    expect(litLabels).toHaveLength(lit);
    // Target pairs: each lit target memory comes with at least one lit query.
    expect(litLabels.some((l) => l.startsWith('memory | target memory'))).toBe(true);
    // Brushed in the indirect panel: only indirect queries' target pairs light up.
    expect(await param('bseries')).toBe('indirect');
    const litQueries = litLabels.filter((l) => l.startsWith('query |'));
    expect(litQueries.length).toBeGreaterThan(0);
    expect(litQueries.every((l) => l.split(' | ')[2].endsWith(':indirect'))).toBe(true);
  });

  it('opens a query’s row and drill-down when its point is clicked', async () => {
    await page.locator(MAP).scrollIntoViewIfNeeded();
    await tagSvg();
    const target = await isolatedPoint('query |');
    const clicked = target.label.split(' | ')[2];
    await page.mouse.click(target.x, target.y);
    await page.waitForFunction(() => /[?&]q=/.test(location.hash), null, { timeout: 10_000 });
    const q = (await param('q')) ?? '';
    expect(q).toBe(clicked);
    const row = page.locator(`[data-table="queries"] tr[data-query-id="${q}"]`);
    expect(await row.getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`[data-query-detail="${q}"]`).isVisible()).toBe(true);
    await mapReady();
    // The selected query is marked, and its top 5 (InMind's k) are drawn as lines to its memories.
    expect((await labels(`query | query | ${q} |`)).some((l) => l.includes('selected'))).toBe(true);
    expect(await page.locator(`${MAP} g.mark-rule line`).count()).toBe(5);
    // Updated in place: the pick re-embedded neither the chart nor re-projected the points.
    expect(await sameSvg()).toBe(true);
  });

  it('keeps range and query across a reload, from the cache, and back/forward undo the pick', async () => {
    const brush = await param('brush');
    const q = await param('q');
    const lit = await attr('data-map-lit');
    expect(lit).not.toBe(litTargets);
    await page.reload();
    await page.waitForSelector(`[data-phase="done"][data-retriever="${MODEL}"]`, {
      timeout: 120_000,
    });
    await mapReady();
    expect(await param('brush')).toBe(brush);
    expect(await param('q')).toBe(q);
    expect(await attr('data-map-source')).toBe('cache');
    // The histogram draws the range from the link, in the panel it was brushed in.
    const drawn = page.locator(
      '[data-chart="reproduce-similarity"] g.score_brush_brush_bg path:not([d="M0,0h0v0h0Z"])',
    );
    expect(await drawn.count()).toBe(1);
    expect(await attr('data-map-lit')).toBe(lit);
    await page.goBack();
    await page.waitForFunction(() => !/[?&]q=/.test(location.hash), null, { timeout: 10_000 });
    await mapReady();
    expect(await attr('data-map-lit')).toBe(litTargets);
    expect(await param('brush')).toBe(brush);
    await page.goForward();
    await page.waitForFunction(() => /[?&]q=/.test(location.hash), null, { timeout: 10_000 });
  });

  it('projects with seeded UMAP in the worker, with progress', async () => {
    await page.selectOption('.embedding-map select', 'umap');
    await mapReady('umap');
    expect(await labels('memory |')).toHaveLength(memories);
    const ms = await page.locator('[data-field="projection-ms"]').getAttribute('data-ms');
    console.log(
      `UMAP (seed 42, 15 neighbours, 200 epochs) of ${memories} + 250 points (${MODEL}): ${ms} ms`,
    );
    expect(await param('map')).toBe('umap');
  });

  it('picks a memory from the keyboard: the top-k list opens it as a click would', async () => {
    await mapReady('umap');
    await tagSvg();
    const q = (await param('q')) ?? '';
    expect(await page.locator('[data-memory-list="top"] button').count()).toBe(5);
    await page.focus('.embedding-map select');
    let key: string | null = null;
    for (let i = 0; i < 30 && key === null; i++) {
      await page.keyboard.press('Tab');
      key = await page.evaluate(() =>
        document.activeElement?.closest('[data-memory-list="top"]')
          ? document.activeElement.getAttribute('data-memory-key')
          : null,
      );
    }
    expect(key).toMatch(/^m:/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /[?&]mem=/.test(location.hash), null, { timeout: 10_000 });
    expect(await param('mem')).toBe(key);
    expect(await param('q')).toBe(q);
    const panel = page.locator('[data-picked-memory]');
    expect(await panel.getAttribute('data-picked-memory')).toBe(key);
    await page.waitForFunction(
      (sel) =>
        [...document.querySelectorAll(`${sel} [aria-label^="memory |"]`)].some((e) =>
          (e.getAttribute('aria-label') ?? '').includes('| selected'),
        ),
      MAP,
      { timeout: 10_000 },
    );
    const drawn = (await labels('memory |')).filter((l) => l.includes('| selected'));
    expect(drawn).toHaveLength(1);
    // The panel names the point in words: a background memory by its id, a target by its queries.
    const heading = await panel.locator('h4').innerText();
    if (drawn[0].includes('| target memory |')) expect(heading).toMatch(/^Target memory of \d+:/);
    else expect(heading).toBe(`Background memory ${drawn[0].split(' | ')[2]}`);
    expect(
      await page.locator(`[data-memory-key="${key}"]`).first().getAttribute('aria-current'),
    ).toBe('true');
    expect(await sameSvg()).toBe(true);
  });

  it('opens a picked memory: its text and its turn in the conversation viewer', async () => {
    await page.locator(MAP).scrollIntoViewIfNeeded();
    const target = await isolatedPoint('memory | background memory');
    await page.mouse.click(target.x, target.y);
    await page.waitForFunction(() => /[?&]mem=/.test(location.hash), null, { timeout: 10_000 });
    const panel = page.locator('[data-picked-memory]');
    expect(await panel.getAttribute('data-picked-memory')).toBe(await param('mem'));
    const id = target.label.split(' | ')[2];
    expect(await panel.locator('h4').innerText()).toContain(id);
    const link = panel.getByRole('link', { name: 'Open this turn in its conversation' });
    expect(await link.getAttribute('href')).toContain(`turn=${encodeURIComponent(id)}`);
  });

  it('searches the memories by text and places a typed query among them, from the keyboard', async () => {
    await mapReady('umap');
    await page.focus('[data-map-find]');
    await page.keyboard.type('the');
    await page.waitForFunction(() => /[?&]find=the(&|$)/.test(location.hash), null, {
      timeout: 10_000,
    });
    const status = page.locator('[data-map-found]');
    await expect.poll(() => status.getAttribute('data-map-found')).toMatch(/^\d+$/);
    const found = Number(await status.getAttribute('data-map-found'));
    expect(found).toBeGreaterThan(20);
    expect(await status.innerText()).toBe(
      `${found.toLocaleString('en')} memories of ${memories} match "the".`,
    );
    await expect
      .poll(async () => (await labels('memory |')).filter((l) => l.includes('| found')).length)
      .toBe(found);
    expect(await page.locator('[data-memory-list="found"] button').count()).toBe(20);
    await page.locator('[data-map-find]').fill('zzqx no such words');
    await expect.poll(() => status.innerText()).toBe('No memory matches "zzqx no such words".');

    // A typed query: embedded with the run's model, placed (UMAP: among its nearest memories).
    await page.focus('[data-map-near]');
    await page.keyboard.type('tree nut allergy');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /[?&]near=tree(\+|%20)nut(\+|%20)allergy/.test(location.hash));
    const state = page.locator('[data-map-near-state]');
    await page.waitForSelector('[data-map-near-state="placed"]', { timeout: 60_000 });
    expect(await state.innerText()).toMatch(
      /UMAP cannot project a new point: placed at the mean of its 10 nearest memories’ positions, weighted by cosine/,
    );
    await mapReady('umap');
    expect(await labels('typed query |')).toEqual(['typed query | tree nut allergy']);
    const near = await page.locator('[data-memory-list="near"] button').allInnerTexts();
    expect(near).toHaveLength(10);
    expect(near[0]).toMatch(/^#1 · -?\d\.\d{3} · (target|background) · /);
    // PCA places it on the fitted axes.
    await page.selectOption('.embedding-map select', 'pca');
    await mapReady('pca');
    await page.waitForSelector('[data-map-near-state="placed"]');
    expect(await state.innerText()).toContain('projected onto the PCA’s two fitted axes');
    expect(await labels('typed query |')).toHaveLength(1);
    // Both survive a reload: they are in the URL.
    await page.reload();
    await mapReady('pca');
    await page.waitForSelector('[data-map-near-state="placed"]', { timeout: 60_000 });
    expect(await page.locator('[data-map-find]').inputValue()).toBe('zzqx no such words');
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.waitForFunction(() => !/[?&]find=/.test(location.hash));
    await page.getByRole('button', { name: 'Remove your query' }).click();
    await page.waitForFunction(() => !/[?&]near=/.test(location.hash));
    await expect.poll(() => labels('typed query |')).toEqual([]);
  });

  it('has no serious axe violation and no sideways scroll at 390 px', async () => {
    expect(await seriousViolations(page)).toEqual([]);
    await shoot('reproduce-map-1400.png');
    await resizedTo(page, 390, 844);
    await shoot('reproduce-map-390.png');
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it('says, on a BM25 run, that the map and a typed query need a model', async () => {
    await showView(
      page,
      harness.site.url,
      { bench: 'inmind', ret: 'bm25' },
      { near: '<b>tree nut</b>' },
    );
    expect(await page.locator('[data-map-absent]').innerText()).toContain(
      'BM25 has none. Pick an embedding model',
    );
    expect(await page.locator('[data-map-near-waiting]').innerText()).toBe(
      'Your query "<b>tree nut</b>" goes on the map once a model runs.',
    );
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
