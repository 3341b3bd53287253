import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import {
  DEFAULT_FIT,
  facetColumns,
  fitHint,
  fitToWidth,
} from '../../../src/lib/charts/fit-width.ts';
import { similarityHistogramSpec } from '../../../src/lib/charts/similarity-histogram.ts';
import { PAPER_CHARTS } from '../../../src/lib/benchmarks/papers.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { resultsCatalog } from './chart-harness.ts';

/** A phone's card (390 px viewport) and a laptop's (1400 px), as the layout e2e measures them. */
const PHONE = 316;
const WIDE = 1326;

const facetSpec = (
  panels: string[],
  extra: { usermeta?: Record<string, unknown> } = {},
): TopLevelSpec => ({
  data: { values: panels.map((p, i) => ({ p, x: i, y: i })) },
  facet: { column: { field: 'p', type: 'nominal' } },
  spec: {
    width: 260,
    height: 100,
    mark: 'point',
    encoding: { x: { field: 'x' }, y: { field: 'y' } },
  },
  ...extra,
});

/** A facet's panel size, as the fitted spec gives it. */
function panel(spec: TopLevelSpec, key: 'width' | 'height'): unknown {
  const inner: unknown = 'spec' in spec ? spec.spec : undefined;
  if (typeof inner !== 'object' || inner === null) return undefined;
  return Object.entries(inner).find(([k]) => k === key)?.[1];
}

async function drawnWidth(spec: TopLevelSpec): Promise<number> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    await view.runAsync();
    const svg = await view.toSVG();
    return Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)?.[1] ?? NaN);
  } finally {
    view.finalize();
  }
}

describe('facetColumns', () => {
  it('puts as many panels in a row as fit, then evens the rows out', () => {
    expect(facetColumns(4, 300, 240)).toBe(1);
    expect(facetColumns(4, 1236, 240)).toBe(4);
    // Room for three: 2 + 2 rather than 3 + 1.
    expect(facetColumns(4, 780, 240)).toBe(2);
    expect(facetColumns(5, 780, 240)).toBe(3);
    expect(facetColumns(2, 5000, 240)).toBe(2);
  });
});

describe('fitHint', () => {
  it("reads the builder's usermeta.fit and falls back field by field", () => {
    expect(fitHint(facetSpec(['a']))).toEqual(DEFAULT_FIT);
    const spec = facetSpec(['a'], { usermeta: { fit: { minPanel: 300, aside: 'wide' } } });
    expect(fitHint(spec)).toEqual({ minPanel: 300, aside: DEFAULT_FIT.aside, aspect: undefined });
    expect(fitHint(facetSpec(['a'], { usermeta: { fit: 3 } }))).toEqual(DEFAULT_FIT);
  });
});

describe('fitToWidth', () => {
  it('wraps a column facet into one column on a phone, each panel with its own x axis', () => {
    const fitted = fitToWidth(facetSpec(['a', 'b', 'c', 'd']), PHONE);
    expect(fitted.spec).toMatchObject({
      facet: { field: 'p' },
      columns: 1,
      resolve: { axis: { x: 'independent' } },
    });
    expect(panel(fitted.spec, 'width')).toBeLessThanOrEqual(PHONE - DEFAULT_FIT.aside);
  });

  it('fills a wide card with the panels in one row', () => {
    const fitted = fitToWidth(facetSpec(['a', 'b', 'c', 'd']), WIDE);
    expect(fitted.spec).toMatchObject({ columns: 4 });
    expect(fitted.spec.resolve).toBeUndefined();
    const width = Number(panel(fitted.spec, 'width'));
    expect(4 * width + 3 * 20 + DEFAULT_FIT.aside).toBeLessThanOrEqual(WIDE);
    expect(4 * width).toBeGreaterThan(0.8 * WIDE);
  });

  it('grows a panel by its aspect, to twice its height at most', () => {
    const hinted = (aspect: number) =>
      facetSpec(['a'], { usermeta: { fit: { minPanel: 200, aside: 60, aspect } } });
    const height = (spec: TopLevelSpec) => panel(spec, 'height');
    expect(height(fitToWidth(hinted(0.5), 400).spec)).toBe(168);
    expect(height(fitToWidth(hinted(0.5), WIDE).spec)).toBe(200);
    expect(height(fitToWidth(hinted(0.1), 400).spec)).toBe(100);
  });

  it('shrinks the panels of a rows-and-columns facet on a phone and doubles them at most on a wide card', () => {
    const grid: TopLevelSpec = {
      data: { values: ['a', 'b'].flatMap((c) => ['x', 'y'].map((r) => ({ c, r }))) },
      facet: { column: { field: 'c', type: 'nominal' }, row: { field: 'r', type: 'nominal' } },
      spec: { width: 200, height: 100, mark: 'point' },
    };
    expect(panel(fitToWidth(grid, PHONE).spec, 'width')).toBe(96);
    expect(panel(fitToWidth(grid, WIDE).spec, 'width')).toBe(400);
  });

  it('stacks side-by-side views that do not fit, and leaves those that do', () => {
    const part = { width: 400, height: 100, mark: 'point' as const };
    const spec: TopLevelSpec = { data: { values: [] }, hconcat: [part, part] };
    expect(fitToWidth(spec, WIDE).spec).toBe(spec);
    const narrow = fitToWidth(spec, PHONE).spec;
    expect('vconcat' in narrow && narrow.vconcat.map((v) => 'width' in v && v.width)).toEqual([
      224, 224,
    ]);
  });

  it('shrinks a fixed-width view to the card and leaves a container-width one alone', () => {
    const fixed: TopLevelSpec = { data: { values: [] }, width: 600, mark: 'point' };
    expect(fitToWidth(fixed, PHONE).spec).toMatchObject({ width: 224 });
    expect(fitToWidth(fixed, WIDE).spec).toBe(fixed);
    const container: TopLevelSpec = { data: { values: [] }, width: 'container', mark: 'point' };
    expect(fitToWidth(container, PHONE).key).toBe(fitToWidth(container, WIDE).key);
  });

  it('leaves a spec it cannot measure as it is (a card not laid out yet)', () => {
    const spec = facetSpec(['a', 'b']);
    expect(fitToWidth(spec, 0)).toEqual({ spec, key: 'unmeasured', estimated: false });
  });

  it('keeps the similarity histogram a wrapped facet whatever the width (its brush names the cell)', () => {
    const bins = ['naive', 'indirect'].flatMap((series) =>
      (['target', 'background'] as const).map((population) => ({
        series,
        population,
        start: 0,
        end: 0.1,
        density: 1,
        count: 1,
      })),
    );
    const spec = similarityHistogramSpec(bins, 'Cosine', { value: null });
    expect(spec).toMatchObject({ facet: { field: 'series' }, columns: 2 });
    expect(fitToWidth(spec, PHONE).spec).toMatchObject({ facet: { field: 'series' }, columns: 1 });
    expect(JSON.stringify(compile(fitToWidth(spec, PHONE).spec).spec)).toContain(
      "'__facet_facet_'",
    );
  });
});

describe("every paper chart, fitted to a phone's card and a laptop's", () => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await resultsCatalog();
  });
  afterAll(async () => {
    await catalog?.engine.close();
  });

  // Vega's text width in Node is an estimate (well wider than Chromium's), so what is drawn here
  // is checked for its layout; the layout e2e measures the real widths.
  const charts = [OVERVIEW_CHART, ...Object.values(PAPER_CHARTS).flat()];
  for (const chart of charts) {
    it(`${chart.id} draws at ${PHONE} and ${WIDE} px, its panels in one column on a phone`, async () => {
      const spec = chart.spec(await catalog.query(chart.sql));
      for (const card of [PHONE, WIDE]) {
        const { spec: fitted } = fitToWidth(spec, card);
        const drawn = await drawnWidth(
          'width' in fitted && fitted.width === 'container'
            ? { ...fitted, width: card - 16 }
            : fitted,
        );
        expect(drawn, `${chart.id} at ${card} px`).toBeGreaterThan(0);
        if ('facet' in spec && card === PHONE) expect(fitted).toMatchObject({ columns: 1 });
        if ('facet' in spec && card === WIDE) expect(drawn).toBeGreaterThan(0.8 * card);
        if ('hconcat' in spec && card === PHONE) expect('vconcat' in fitted).toBe(true);
      }
    });
  }
});
