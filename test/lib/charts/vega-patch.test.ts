import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import { View, parse, type Mark } from 'vega';
import { brushInitUnit, patchBrushMarks } from '../../../src/lib/charts/vega-patch.ts';
import {
  SCORE_BRUSH,
  similarityHistogramSpec,
  unitOfSeries,
} from '../../../src/lib/charts/similarity-histogram.ts';

function allMarks(marks: readonly Mark[] = []): Mark[] {
  return marks.flatMap((m) => [m, ...('marks' in m ? allMarks(m.marks) : [])]);
}

describe('patchBrushMarks', () => {
  const bins = [
    { series: 'naive', population: 'target' as const, start: 0, end: 1, density: 1, count: 1 },
  ];
  const compiled = compile(similarityHistogramSpec(bins, 'cosine', { value: null })).spec;

  it('hides the faceted histogram brush’s two rects from assistive tech, and nothing else', () => {
    const before = allMarks(compiled.marks);
    const brushes = before.filter((m) => /_brush(_bg)?$/.test(m.name ?? ''));
    expect(brushes.map((m) => m.name).sort()).toEqual([
      'score_brush_brush',
      'score_brush_brush_bg',
    ]);
    const after = allMarks(patchBrushMarks(compiled).marks);
    expect(
      after
        .filter((m) => m.aria === false)
        .map((m) => m.name)
        .sort(),
    ).toEqual(
      [
        ...brushes.map((m) => m.name),
        ...before.filter((m) => m.aria === false).map((m) => m.name),
      ].sort(),
    );
    expect(after).toHaveLength(before.length);
  });

  it('leaves a spec without marks as it is', () => {
    expect(patchBrushMarks({ signals: [] })).toEqual({ signals: [] });
  });
});

interface Item {
  name: string;
  x: number;
  x2: number;
}

/** Every brush item of the scenegraph, in drawing order (Vega's scenegraph is untyped here). */
function allItems(node: unknown): Item[] {
  if (typeof node !== 'object' || node === null) return [];
  const name = 'name' in node && typeof node.name === 'string' ? node.name : '';
  const items = 'items' in node && Array.isArray(node.items) ? node.items : [];
  return items.flatMap((item: unknown): Item[] => {
    const here =
      typeof item === 'object' &&
      item !== null &&
      'x' in item &&
      'x2' in item &&
      typeof item.x === 'number' &&
      typeof item.x2 === 'number' &&
      BRUSH.test(name)
        ? [{ name, x: item.x, x2: item.x2 }]
        : [];
    return [...here, ...allItems(item)];
  });
}

const BRUSH = /_brush(_bg)?$/;

describe('brushInitUnit', () => {
  const bins = ['naive', 'indirect'].map((series) => ({
    series,
    population: 'target' as const,
    start: 0,
    end: 1,
    density: 1,
    count: 1,
  }));
  const spec = compile(similarityHistogramSpec(bins, 'cosine', { value: [0.2, 0.4] })).spec;

  it('gives a faceted brush’s starting tuple the cell it was drawn in', async () => {
    const unevaluated = JSON.stringify(spec.data?.find((d) => d.name === `${SCORE_BRUSH}_store`));
    expect(unevaluated).toContain('facet[');
    const patched = patchBrushMarks(brushInitUnit(SCORE_BRUSH, unitOfSeries('indirect'))(spec));
    const view = new View(parse(patched), { renderer: 'none' });
    await view.runAsync();
    // Drawn in the indirect cell only: 0.2..0.4 of the 260 px panel.
    const graph: unknown = view.scenegraph();
    const root = typeof graph === 'object' && graph !== null && 'root' in graph ? graph.root : null;
    const drawn = allItems(root)
      .filter((i) => i.name === `${SCORE_BRUSH}_brush_bg`)
      .map((i) => [i.x, i.x2]);
    expect(drawn).toEqual([
      [0, 0],
      [52, 104],
    ]);
    const store: unknown[] = view.data(`${SCORE_BRUSH}_store`);
    expect(store).toEqual([expect.objectContaining({ unit: 'child__facet_facet_indirect' })]);
    expect(view.signal(SCORE_BRUSH)).toEqual({ start: [0.2, 0.4] });
    view.finalize();
  });
});
