// Figures that read well and keep their state in the URL: legend picks and table sorts survive a
// reload, back/forward restore the previous legend pick, exports carry title, source and link,
// the copied spec compiles, and the Overview plots every number on one % scale.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { OVERVIEW_CHART } from '../../src/lib/benchmarks/overview.ts';
import type { SqlRow } from '../../src/lib/db/engine.ts';
import { resultsCatalog } from '../lib/charts/chart-harness.ts';
import { showView } from '../lib/protocols/page-helpers.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
let overviewRows: SqlRow[] = [];

const FIG1 = 'memuse-figure1';

beforeAll(async () => {
  const catalog = await resultsCatalog();
  overviewRows = await catalog.query(OVERVIEW_CHART.sql);
  await catalog.engine.close();
  ({ page, watch } = await harness.tab({
    viewport: { width: 1400, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  }));
});

function figure(id: string): Locator {
  return page.locator(`figure[data-chart="${id}"]`);
}

async function rendered(id: string): Promise<void> {
  await figure(id).locator('.chart-canvas[data-rendered="true"]').waitFor({ timeout: 120_000 });
}

/** Opacity of each data mark per series, from the marks' `label | series | value` labels. */
async function opacityBySeries(id: string): Promise<Record<string, string[]>> {
  const pairs = await figure(id)
    .locator('.chart-canvas .role-mark > [aria-label]')
    .evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute('aria-label')?.split(' | ')[1] ?? '',
        e.getAttribute('opacity') ?? '1',
      ]),
    );
  const out: Record<string, string[]> = {};
  for (const [series, opacity] of pairs)
    out[series] = [...new Set([...(out[series] ?? []), opacity])];
  return out;
}

const fig1Picked = (picked: 'Direct QA' | 'Natural Integration') => {
  const other = picked === 'Direct QA' ? 'Natural Integration' : 'Direct QA';
  return { [picked]: ['1'], [other]: ['0.15'] };
};

async function clickLegend(id: string, entry: string): Promise<void> {
  await figure(id).locator('.role-legend-label text', { hasText: entry }).click();
}

const hashParams = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');

const xmlEscaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

describe('legend picks live in the URL', () => {
  it('writes a legend click to legend.<chart>, and keeps it over a reload', async () => {
    await page.goto(`${harness.site.url}#/memuse`);
    await rendered(FIG1);
    await clickLegend(FIG1, 'Natural Integration');
    await page.waitForFunction(() => location.hash.includes('legend.memuse-figure1='));
    expect(hashParams().get(`legend.${FIG1}`)).toBe('Natural Integration');
    await expect.poll(() => opacityBySeries(FIG1)).toEqual(fig1Picked('Natural Integration'));

    await page.reload();
    await rendered(FIG1);
    await expect
      .poll(() => opacityBySeries(FIG1), { timeout: 30_000 })
      .toEqual(fig1Picked('Natural Integration'));
  });

  it('steps back and forward through legend picks', async () => {
    await clickLegend(FIG1, 'Direct QA');
    await page.waitForFunction(() => location.hash.includes('legend.memuse-figure1=Direct'));
    await expect.poll(() => opacityBySeries(FIG1)).toEqual(fig1Picked('Direct QA'));
    await page.goBack();
    await page.waitForFunction(() => location.hash.includes('legend.memuse-figure1=Natural'));
    await expect
      .poll(() => opacityBySeries(FIG1), { timeout: 30_000 })
      .toEqual(fig1Picked('Natural Integration'));
    await page.goForward();
    await expect
      .poll(() => opacityBySeries(FIG1), { timeout: 30_000 })
      .toEqual(fig1Picked('Direct QA'));
  });
});

describe('the legend by keyboard', () => {
  it('toggles an entry from its Highlight button, into the same URL state', async () => {
    const keys = figure(FIG1).getByRole('group', { name: /by legend entry/ });
    expect(await keys.getByRole('button', { name: 'Direct QA' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await keys.getByRole('button', { name: 'Natural Integration' }).focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => location.hash.includes('%2CNatural'));
    expect(hashParams().get(`legend.${FIG1}`)).toBe('Direct QA,Natural Integration');
    await expect
      .poll(() => opacityBySeries(FIG1), { timeout: 30_000 })
      .toEqual({ 'Direct QA': ['1'], 'Natural Integration': ['1'] });
    expect(
      await keys.getByRole('button', { name: 'Natural Integration' }).getAttribute('aria-pressed'),
    ).toBe('true');
  });
});

describe('exports', () => {
  it('saves an SVG with the title, the source line and the link back', async () => {
    const fig = figure(FIG1);
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      fig.getByRole('button', { name: 'SVG', exact: true }).click(),
    ]);
    const svg = await readFile(await file.path(), 'utf8');
    expect(svg).toMatch(/^\s*<svg/);
    expect(svg).toContain(xmlEscaped(await fig.locator('.chart-title').innerText()));
    expect(svg).toContain(xmlEscaped(`Source: ${await fig.locator('.chart-source').innerText()}`));
    expect(svg).toContain(xmlEscaped(`MemLens: ${page.url()}`));
  });

  it('copies a Vega-Lite spec that compiles, with its data and the legend pick', async () => {
    await figure(FIG1).getByRole('button', { name: 'Copy Vega-Lite spec' }).click();
    await figure(FIG1).getByRole('status').filter({ hasText: 'Spec copied' }).waitFor();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const spec: TopLevelSpec = JSON.parse(text);
    const compiled = compile(spec).spec;
    expect(compiled.data?.some((d) => 'values' in d && Array.isArray(d.values))).toBe(true);
    expect(text).toContain('"value": [');
    expect(text).toContain(page.url());
  });

  it('selects the spec in a text field when the clipboard is refused', async () => {
    await page.evaluate(() =>
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }),
    );
    await figure(FIG1).getByRole('button', { name: 'Copy Vega-Lite spec' }).click();
    const field = figure(FIG1).locator('[data-spec-text]');
    await field.waitFor();
    const [focused, start, end, length] = await field.evaluate((el: HTMLTextAreaElement) => [
      document.activeElement === el,
      el.selectionStart,
      el.selectionEnd,
      el.value.length,
    ]);
    expect([focused, start, end]).toEqual([true, 0, length]);
    const value = await field.inputValue();
    expect(() => compile(JSON.parse(value))).not.toThrow();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("keeps a chart's own notes (UtilMem's NR and DR lines) in its SVG", async () => {
    await page.goto(`${harness.site.url}#/utilmem`);
    const noted = page.locator('figure.chart', { hasText: 'NR: quality kept' });
    await noted.locator('.chart-canvas[data-rendered="true"]').waitFor({ timeout: 120_000 });
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      noted.getByRole('button', { name: 'SVG', exact: true }).click(),
    ]);
    const svg = await readFile(await file.path(), 'utf8');
    expect(svg).toContain(xmlEscaped(await noted.locator('.chart-title').innerText()));
    expect(svg).toContain('NR: quality kept (higher is better)');
    expect(svg).toContain('DR: answers degraded (lower is better)');
  });
});

describe('a table sort lives in the URL', () => {
  it('keeps the task table sorted by domain, descending, over a reload', async () => {
    await page.goto(`${harness.site.url}#/inmind`);
    const domain = page.getByRole('button', { name: /^Domain/ });
    await domain.click();
    await domain.click();
    await page.waitForFunction(() => location.hash.includes('dir=desc'));
    // The first rows, as [task id, domain]; sorted once every domain is ≥ the next one.
    const order = () =>
      page
        .locator('tr[data-task-id]')
        .evaluateAll((rows) =>
          rows
            .slice(0, 30)
            .map((r) => [r.getAttribute('data-task-id'), r.children[1]?.textContent ?? '']),
        );
    const sorted = async () => {
      const rows = await order();
      const domains = rows.map(([, d]) => d ?? '');
      return rows.length === 30 && domains.every((d, i) => i === 0 || domains[i - 1] >= d);
    };
    await expect.poll(sorted, { timeout: 30_000 }).toBe(true);
    const before = await order();
    expect(new Set(before.map(([, d]) => d)).size).toBeGreaterThan(1);
    await page.reload();
    await page.waitForSelector('th[aria-sort="descending"]', { timeout: 120_000 });
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toMatch(/^Domain/);
    await expect.poll(order, { timeout: 30_000 }).toEqual(before);
    // Each header click is a step in the history: back is the ascending sort.
    await page.goBack();
    await page.waitForFunction(() => !location.hash.includes('dir=desc'));
    await page.waitForSelector('th[aria-sort="ascending"]');
    expect(await page.locator('th[aria-sort="ascending"]').innerText()).toMatch(/^Domain/);
  });
});

describe('the per-query table of Reproduce sorts by its headers', () => {
  it('keeps a sort by target score, descending, over a reload', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25', k: 5 });
    const header = page.locator('[data-table="queries"] th button', { hasText: 'Target score' });
    await header.click();
    await header.click();
    await page.waitForFunction(() => location.hash.includes('qdir=desc'));
    expect(hashParams().get('qsort')).toBe('target_score');
    const scores = () =>
      page
        .locator('[data-table="queries"] tbody tr')
        .evaluateAll((rows) => rows.slice(0, 20).map((r) => r.children[4]?.textContent ?? ''));
    const descending = async () => {
      const values = (await scores()).map(Number);
      return values.length === 20 && values.every((v, i) => i === 0 || values[i - 1] >= v);
    };
    await expect.poll(descending).toBe(true);
    const before = await scores();
    expect(new Set(before).size).toBeGreaterThan(1);
    await page.reload();
    await page.waitForSelector('[data-phase="done"][data-benchmark="inmind"]', {
      timeout: 120_000,
    });
    expect(
      await page.locator('[data-table="queries"] th[aria-sort="descending"]').innerText(),
    ).toMatch(/^Target score/);
    await expect.poll(scores, { timeout: 30_000 }).toEqual(before);
    // The headers are buttons: Tab reaches them, Enter sorts.
    await page.locator('[data-table="queries"] th button', { hasText: 'Series' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash.includes('qsort=series'));
    expect(await seriousViolations(page, '[data-table="queries"]')).toEqual([]);
  });
});

describe('the Overview on one honest scale', () => {
  it('plots every score as a % of one axis, with the printed value in its tooltip', async () => {
    await page.goto(`${harness.site.url}#/home`);
    // The snapshot's chart is replaced by the live one, and the page's scrollbar can appear once
    // the tables are listed: measure the live chart, and read the axis and the points at once.
    await figure(OVERVIEW_CHART.id)
      .and(page.locator('[data-origin="sql"]'))
      .locator('.chart-canvas[data-rendered="true"]')
      .waitFor({ timeout: 120_000 });
    const fig = figure(OVERVIEW_CHART.id);
    const layout = await fig.locator('.chart-canvas').evaluate((canvas) => {
      const centre = (el: Element) => {
        const r = el.getBoundingClientRect();
        return r.left + r.width / 2;
      };
      const ticks: Record<string, number> = {};
      for (const t of canvas.querySelectorAll('.role-axis-label text'))
        ticks[t.textContent ?? ''] = centre(t);
      const points: Record<string, number> = {};
      for (const p of canvas.querySelectorAll('.role-mark > [aria-label]'))
        points[p.getAttribute('aria-label') ?? ''] = centre(p);
      return { ticks, points };
    });
    // The end labels (0, 100) sit flush with the axis ends; inner ones are centred on their ticks.
    const x20 = layout.ticks['20'];
    const x80 = layout.ticks['80'];
    expect(x80 - x20).toBeGreaterThan(300);
    expect(Object.keys(layout.points)).toHaveLength(overviewRows.length);
    const tooltip = page.locator('#vg-tooltip-element');
    for (const row of overviewRows) {
      const label = `${String(row.paper_label)} | ${String(row.side_label)} | ${String(row.value_text)}`;
      const point = fig.locator(`.chart-canvas .role-mark > [aria-label="${label}"]`);
      const expected = x20 + ((Number(row.pct) - 20) / 60) * (x80 - x20);
      expect(Math.abs(layout.points[label] - expected), label).toBeLessThan(2);
      // The card can settle its width once more after the first paint, which hides a tooltip:
      // hover again until the tooltip shows this point, and read it whole in one go.
      const shown = async () => {
        await point.hover();
        const text = await tooltip.innerText();
        return text.includes(String(row.who)) ? text : '';
      };
      const printed = `Value as printed\\s*${String(row.value_text)}`;
      await expect
        .poll(shown)
        .toMatch(new RegExp(`(?=[\\s\\S]*${printed})(?=[\\s\\S]*Plotted \\(%\\))`));
    }
    // LoCoMo-Conv prints .470 and UtilMem 1.0: both sit on the % axis, not near 0.
    const scaled = overviewRows.filter((r) => String(r.value_text).startsWith('.'));
    expect(scaled.length).toBeGreaterThan(0);
    for (const r of scaled) expect(Number(r.pct)).toBeGreaterThan(1);
  });
});

describe('a phone-width screen', () => {
  it('never scrolls sideways on the chart pages, and axe finds nothing serious', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const hash of ['#/home', '#/memuse', '#/locomo-conv']) {
      await page.goto(`${harness.site.url}${hash}`);
      await page
        .locator('.chart-canvas[data-rendered="true"]')
        .first()
        .waitFor({ timeout: 60_000 });
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, hash).toBeLessThanOrEqual(innerWidth);
      expect(await seriousViolations(page), hash).toEqual([]);
    }
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
