import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { OVERVIEW_CHART, PAPER_CHARTS } from '../../../src/lib/charts/paper-charts.ts';
import { figureSpec } from '../../../src/lib/charts/chart-export.ts';
import { figureSvg } from '../../../src/lib/charts/figure-render.ts';
import { resultsCatalog } from './chart-harness.ts';

let catalog: Catalog;
let overview: TopLevelSpec;
let facet: TopLevelSpec;

const LABEL = {
  title: 'Recalled when asked & rarely used',
  source: 'Best row per paper <and side>',
  url: 'http://127.0.0.1:4173/memlens/#/home?legend.overview-recall-vs-use=Use',
};

beforeAll(async () => {
  catalog = await resultsCatalog();
  overview = OVERVIEW_CHART.spec(await catalog.query(OVERVIEW_CHART.sql));
  const [table4] = PAPER_CHARTS['locomo-conv'];
  facet = table4.spec(await catalog.query(table4.sql));
});

afterAll(async () => {
  await catalog.engine.close();
});

const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

describe('a figure drawn for export', () => {
  it('carries the title, the source line and the link back, as SVG text', async () => {
    const svg = await figureSvg(figureSpec(overview, LABEL, 640));
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain(escaped(LABEL.title));
    expect(svg).toContain(escaped(`Source: ${LABEL.source}`));
    expect(svg).toContain(escaped(`MemLens: ${LABEL.url}`));
  });

  it('titles composite charts too (a facet keeps its own panel widths)', async () => {
    const figure = figureSpec(facet, { ...LABEL, source: '' }, 900);
    const svg = await figureSvg(figure);
    expect(svg).toContain(escaped(LABEL.title));
    expect(svg).not.toContain('Source:');
    expect(svg).toContain(escaped(`MemLens: ${LABEL.url}`));
  });
});
