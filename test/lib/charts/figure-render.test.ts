import { beforeAll, describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { figureSpec } from '../../../src/lib/charts/chart-export.ts';
import { figureSvg } from '../../../src/lib/charts/figure-render.ts';
import { EXPORT_LABEL, exportSpecs } from './chart-harness.ts';

let overview: TopLevelSpec;
let facet: TopLevelSpec;
const LABEL = EXPORT_LABEL;

beforeAll(async () => {
  ({ overview, facet } = await exportSpecs());
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
