import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import type { Mark } from 'vega';
import { quietBrushMarks } from '../../../src/lib/charts/vega-patch.ts';
import { similarityHistogramSpec } from '../../../src/lib/charts/similarity-histogram.ts';

function allMarks(marks: readonly Mark[] = []): Mark[] {
  return marks.flatMap((m) => [m, ...('marks' in m ? allMarks(m.marks) : [])]);
}

describe('quietBrushMarks', () => {
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
    const after = allMarks(quietBrushMarks(compiled).marks);
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
    expect(quietBrushMarks({ signals: [] })).toEqual({ signals: [] });
  });
});
