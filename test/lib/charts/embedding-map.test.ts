import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import { MAP_PICK, embeddingMapSpec } from '../../../src/lib/charts/embedding-map.ts';
import {
  SCORE_BRUSH,
  similarityHistogramSpec,
} from '../../../src/lib/charts/similarity-histogram.ts';
import type { LineDatum, MapDatum } from '../../../src/lib/map/map-points.ts';

function datum(
  key: string,
  role: 'memory' | 'query',
  kind: string,
  over: Partial<MapDatum> = {},
): MapDatum {
  return {
    key,
    kind,
    role,
    x: key.length,
    y: 1,
    lit: false,
    selected: false,
    score: null,
    id: key,
    snippet: key,
    aria: `${role} | ${kind} | ${key}`,
    ...over,
  };
}

const points = [
  datum('m:a:0', 'memory', 'background memory'),
  datum('m:a:1', 'memory', 'target memory', { lit: true }),
  datum('q:1', 'query', 'query', { selected: true }),
];
const lines: LineDatum[] = [{ x: 0, y: 0, x2: 1, y2: 1, rank: 1 }];

describe('embedding map spec', () => {
  it('compiles: a rule layer for the top-k under a point layer with the click selection', () => {
    const spec = embeddingMapSpec(points, lines, { title: 'PCA', ranged: true });
    expect(() => compile(spec)).not.toThrow();
    expect(spec.description).toBe('PCA: 2 memories and 1 queries');
    if (!('layer' in spec)) throw new Error('not layered');
    expect(
      spec.layer.map((l) => ('mark' in l && typeof l.mark === 'object' ? l.mark.type : '')),
    ).toEqual(['rule', 'point']);
    expect(JSON.stringify(spec.layer[1])).toContain(`"name":"${MAP_PICK}"`);
  });

  it('fades unlit points only while a range is brushed', () => {
    const ranged = JSON.stringify(embeddingMapSpec(points, [], { title: 'x', ranged: true }));
    const plain = JSON.stringify(embeddingMapSpec(points, [], { title: 'x', ranged: false }));
    expect(ranged).toContain('"value":0.12');
    expect(plain).not.toContain('"value":0.12');
  });

  it('colours target and background as the similarity histogram does', () => {
    const text = JSON.stringify(embeddingMapSpec(points, [], { title: 'x', ranged: false }));
    expect(text).toContain('"range":["#0072B2","#E69F00","#000000"]');
  });
});

describe('similarity histogram brush', () => {
  const bins = [
    { series: 'naive', population: 'target' as const, start: 0, end: 0.5, density: 1, count: 1 },
  ];
  it('adds an x-interval selection, drawn from a given range, and compiles', () => {
    const spec = similarityHistogramSpec(bins, 'cosine', { value: [0.1, 0.3] });
    expect(() => compile(spec)).not.toThrow();
    expect(JSON.stringify(spec)).toContain(`"name":"${SCORE_BRUSH}"`);
    expect(JSON.stringify(spec)).toContain('"value":{"x":[0.1,0.3]}');
    expect(JSON.stringify(similarityHistogramSpec(bins, 'cosine'))).not.toContain(SCORE_BRUSH);
  });
});
