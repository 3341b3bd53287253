import { beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { resultsCatalog } from '../lib/charts/chart-harness.ts';
import type { ChartDef } from '../../src/lib/charts/chart-kit.ts';
import { OVERVIEW_CHART } from '../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS, PAPER_INFO } from '../../src/lib/benchmarks/papers.ts';
import type { SqlRow } from '../../src/lib/db/engine.ts';
import { PAPERS } from '../../src/lib/benchmarks/registry.ts';
import { parseCsvRecords } from '../../src/lib/common/csv-records.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
/** Each chart's rows, from the same SQL run on the same CSVs by DuckDB-WASM in Node. */
const expected = new Map<string, SqlRow[]>();

const PAGES: { id: string; label: string; charts: ChartDef[] }[] = [
  { id: 'home', label: 'Overview', charts: [OVERVIEW_CHART] },
  ...PAPERS.map((p) => ({ id: p, label: PAPER_INFO[p].label, charts: PAPER_CHARTS[p] })),
];

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function figure(id: string): Locator {
  return page.locator(`figure[data-chart="${id}"]`);
}

async function markLabels(id: string): Promise<string[]> {
  return figure(id)
    .locator('.chart-canvas .role-mark > [aria-label]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

async function download(
  id: string,
  button: 'PNG' | 'SVG' | 'CSV',
): Promise<{ name: string; bytes: Buffer }> {
  // Known bug (closing note): a click that lands while the chart re-renders, when DuckDB's rows
  // replace the build-time snapshot, can produce no download; one retry, and it is logged.
  const attempt = async (timeout: number) => {
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout }),
      figure(id).getByRole('button', { name: button, exact: true }).click(),
    ]);
    return file;
  };
  const file = await attempt(10_000).catch(async () => {
    console.warn(`${id}: ${button} export gave no download within 10 s; retrying once`);
    return attempt(30_000);
  });
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

async function openPage(id: string, label: string): Promise<void> {
  if (!page.url().endsWith(`#/${id}`)) {
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: label, exact: true })
      .click();
    await page.waitForFunction((h) => location.hash === h, `#/${id}`);
  }
}

beforeAll(async () => {
  const catalog = await resultsCatalog();
  for (const def of PAGES.flatMap((p) => p.charts))
    expected.set(def.id, await catalog.query(def.sql));
  await catalog.engine.close();
  ({ page, watch } = await harness.open('#/home'));
  await page.waitForSelector(
    `[data-chart="${OVERVIEW_CHART.id}"] .chart-canvas[data-rendered="true"]`,
    {
      timeout: 120_000,
    },
  );
  // Once the benchmarks are in, pages stop re-querying, so charts hold still while we count.
  await page.waitForFunction(() => !document.querySelector('.loading'), null, { timeout: 120_000 });
});

describe.each(PAGES)('$label page (#/$id)', ({ id, label, charts }) => {
  beforeAll(async () => {
    await openPage(id, label);
  });

  it.each(charts.map((c) => ({ chart: c.id, def: c })))(
    '$chart: one mark per query row, the same rows as in Node',
    async ({ chart }) => {
      const rows = expected.get(chart) ?? [];
      await figure(chart)
        .locator('.chart-canvas[data-rendered="true"]')
        .waitFor({ timeout: 60_000 });
      expect(Number(await figure(chart).getAttribute('data-rows'))).toBe(rows.length);
      const labels = await markLabels(chart);
      expect(labels).toHaveLength(rows.length);
      expect(labels.map((l) => l.split(' | ')[2]).sort()).toEqual(
        rows.map((r) => String(r.value_text)).sort(),
      );
      await expect(figure(chart).locator('.chart-source').innerText()).resolves.toMatch(
        /§|Table|Figure|SQL/,
      );
    },
  );

  it.each(charts.map((c) => ({ chart: c.id, def: c })))(
    '$chart: shows its SQL and rows',
    async ({ chart, def }) => {
      const fig = figure(chart);
      await fig.getByRole('button', { name: 'Show data' }).click();
      expect(await fig.locator('pre.sql').innerText()).toBe(def.sql);
      expect(await fig.locator('.chart-data tbody tr').count()).toBe(expected.get(chart)?.length);
      await fig.getByRole('button', { name: 'Hide data' }).click();
    },
  );

  it.each(charts.map((c) => ({ chart: c.id })))(
    '$chart: exports PNG, SVG and CSV',
    async ({ chart }) => {
      const png = await download(chart, 'PNG');
      expect(png.name).toBe(`memlens-${chart}.png`);
      expect(png.bytes.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
      expect(png.bytes.length).toBeGreaterThan(1000);

      const svg = await download(chart, 'SVG');
      expect(svg.bytes.toString('utf8')).toMatch(/^\s*<svg/);

      const csv = (await download(chart, 'CSV')).bytes.toString('utf8');
      const rows = expected.get(chart) ?? [];
      const records = parseCsvRecords(csv);
      expect(records[0].fields).toEqual(Object.keys(rows[0]));
      expect(records).toHaveLength(rows.length + 1);
    },
  );
});

describe('chart interaction', () => {
  it('filters by clicking a legend entry', async () => {
    await openPage('memuse', 'MemUse');
    const chart = figure('memuse-figure1');
    await chart.locator('.role-legend-label text', { hasText: 'Natural Integration' }).click();
    const opacities = () =>
      chart
        .locator('.chart-canvas .role-mark > [aria-label]')
        .evaluateAll((els) =>
          els.map((e) => [
            e.getAttribute('aria-label')?.split(' | ')[1],
            e.getAttribute('opacity') ?? '1',
          ]),
        );
    await expect
      .poll(
        async () =>
          new Set((await opacities()).filter(([m]) => m === 'Direct QA').map(([, o]) => o)),
      )
      .toEqual(new Set(['0.15']));
    expect(
      new Set((await opacities()).filter(([m]) => m === 'Natural Integration').map(([, o]) => o)),
    ).toEqual(new Set(['1']));
  });

  it('shows provenance in the tooltip', async () => {
    const mark = figure('memuse-figure1')
      .locator('.chart-canvas .role-mark > [aria-label]')
      .first();
    await mark.hover();
    const tooltip = page.locator('#vg-tooltip-element');
    await expect.poll(() => tooltip.innerText()).toMatch(/Line in paper text\s*395/);
    expect(await tooltip.innerText()).toContain('Table');
  });

  it('links each paper page from the overview', async () => {
    await openPage('home', 'Overview');
    const links = page.locator('ul.paper-links a');
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(
      PAPERS.map((p) => `#/${p}`),
    );
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
