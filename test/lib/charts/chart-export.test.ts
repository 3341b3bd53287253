import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type TopLevelSpec } from 'vega-lite';
import { figureSpec, specText } from '../../../src/lib/charts/chart-export.ts';
import { EXPORT_LABEL, exportSpecs } from './chart-harness.ts';

let overview: TopLevelSpec;
let facet: TopLevelSpec;
const LABEL = EXPORT_LABEL;

beforeAll(async () => {
  ({ overview, facet } = await exportSpecs());
});

describe('a figure exported from a chart', () => {
  it('has the width the chart had on screen, or a fixed one, instead of the card width', () => {
    const sized = figureSpec(overview, LABEL, 640.4);
    expect('width' in sized && sized.width).toBe(640);
    expect(sized.autosize).toEqual({ type: 'pad' });
    const unsized = figureSpec(overview, LABEL, null);
    expect('width' in unsized && unsized.width).toBe(720);
    expect('width' in overview && overview.width).toBe('container');
  });

  it('titles the figure with its source line and the link back; a missing source is left out', () => {
    expect(figureSpec(overview, LABEL, 640).title).toEqual({
      text: LABEL.title,
      subtitle: [`Source: ${LABEL.source}`, `MemLens: ${LABEL.url}`],
    });
    const figure = figureSpec(facet, { ...LABEL, source: '' }, 900);
    expect(figure.title).toEqual({ text: LABEL.title, subtitle: [`MemLens: ${LABEL.url}`] });
    expect('width' in figure).toBe(false);
  });

  it("keeps the chart's own title lines (its notes) under the figure's title", () => {
    const noted: TopLevelSpec = {
      ...overview,
      title: { text: 'NR: quality kept', subtitle: 'DR: answers degraded', fontSize: 11 },
    };
    expect(figureSpec(noted, LABEL, 640).title).toEqual({
      text: LABEL.title,
      subtitle: [
        'NR: quality kept',
        'DR: answers degraded',
        `Source: ${LABEL.source}`,
        `MemLens: ${LABEL.url}`,
      ],
    });
    const lines = figureSpec({ ...overview, title: ['one', ''] }, LABEL, 640).title;
    expect(lines).toMatchObject({
      subtitle: ['one', `Source: ${LABEL.source}`, `MemLens: ${LABEL.url}`],
    });
  });

  it('copies as a self-contained Vega-Lite spec with its data inline', () => {
    const text = specText(figureSpec(overview, LABEL, 640));
    const parsed: unknown = JSON.parse(text);
    expect(parsed).toMatchObject({
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: { text: LABEL.title },
      data: { values: expect.arrayContaining([expect.objectContaining({ paper: 'inmind' })]) },
    });
    expect(() => compile(JSON.parse(text))).not.toThrow();
  });
});
