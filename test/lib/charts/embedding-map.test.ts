import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import { View, parse } from 'vega';
import {
  MAP_LINES,
  MAP_PICK,
  MAP_POINTS,
  embeddingMapSpec,
  pointDomain,
  updateEmbeddingMap,
} from '../../../src/lib/charts/embedding-map.ts';
import { vegaWarnings } from './chart-harness.ts';
import {
  SCORE_BRUSH,
  similarityHistogramSpec,
} from '../../../src/lib/charts/similarity-histogram.ts';
import { NO_GROUP, type LineDatum, type MapDatum } from '../../../src/lib/map/map-points.ts';

function datum(
  key: string,
  role: 'memory' | 'query',
  kind: string,
  over: Partial<MapDatum> = {},
): MapDatum {
  return {
    key,
    kind,
    title: `${kind} ${key}`,
    group: 'food',
    score_text: 'open a query to score the memories against it',
    role,
    x: key.length,
    y: 1,
    lit: false,
    found: false,
    selected: false,
    faded: false,
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
    const spec = embeddingMapSpec(points, lines, { title: 'PCA' });
    expect(() => compile(spec)).not.toThrow();
    expect(spec.description).toBe('PCA: 2 memories and 1 query');
    if (!('layer' in spec)) throw new Error('not layered');
    expect(
      spec.layer.map((l) => ('mark' in l && typeof l.mark === 'object' ? l.mark.type : '')),
    ).toEqual(['rule', 'point']);
    expect(JSON.stringify(spec.layer[1])).toContain(`"name":"${MAP_PICK}"`);
  });

  it('fades the points marked faded (a range brushed, neither lit nor selected)', () => {
    const text = JSON.stringify(embeddingMapSpec(points, [], { title: 'x' }));
    expect(text).toContain('{"test":"datum.faded","value":0.12}');
  });

  it('updates a drawn view in place: a pick marks its point and draws its lines', async () => {
    const view = new View(parse(compile(embeddingMapSpec(points, [], { title: 'x' })).spec), {
      renderer: 'none',
    });
    await view.runAsync();
    const picked = points.map((p) => ({
      ...p,
      selected: p.key === 'm:a:0',
      faded: p.key !== 'm:a:0',
    }));
    const change = await updateEmbeddingMap(view, picked, lines);
    expect(change).toEqual({ inserted: 1, modified: 3, removed: 0 });
    const sizes = new Map(drawn(view).map((i) => [i.key, i.size]));
    expect(sizes.get('m:a:0')).toBe(220);
    expect(sizes.get('q:1')).toBe(28);
    expect(view.data(MAP_LINES)).toHaveLength(1);
    expect(view.data(MAP_POINTS)).toHaveLength(3);
    // Nothing changed: nothing to run.
    expect(await updateEmbeddingMap(view, picked, lines)).toEqual({
      inserted: 0,
      modified: 0,
      removed: 0,
    });
    await updateEmbeddingMap(view, points, []);
    expect(view.data(MAP_LINES)).toHaveLength(0);
    view.finalize();
  });

  it('draws and updates with no lines (no query picked) without an "Infinite extent" warning', async () => {
    const warnings = await vegaWarnings(embeddingMapSpec(points, [], { title: 'x' }), async (v) => {
      await updateEmbeddingMap(v, points, lines);
      await updateEmbeddingMap(v, points, []);
    });
    expect(warnings).toEqual([]);
  });

  it('draws a found memory larger, opaque and ringed', () => {
    const text = JSON.stringify(embeddingMapSpec(points, [], { title: 'x' }));
    expect(text).toContain('{"test":"datum.found","value":90}');
    expect(text).toContain('{"test":"datum.lit || datum.selected || datum.found","value":1}');
  });

  it('draws a typed query as a diamond with dashed lines, the axes widened to hold it', async () => {
    const typed = {
      x: 40,
      y: -7,
      snippet: 'tree nut',
      how: 'projected',
      aria: 'typed query | tree nut',
      lines: [{ x: 40, y: -7, x2: 3, y2: 1, rank: 1 }],
    };
    const spec = embeddingMapSpec(points, [], { title: 'x', typed });
    if (!('layer' in spec)) throw new Error('not layered');
    expect(
      spec.layer.map((l) => ('mark' in l && typeof l.mark === 'object' ? l.mark.type : '')),
    ).toEqual(['rule', 'point', 'rule', 'point']);
    const text = JSON.stringify(spec);
    expect(text).toContain('"domain":[3,40]');
    expect(text).toContain('"domain":[-7,1]');
    expect(text).toContain('"shape":"diamond"');
    const warnings = await vegaWarnings(spec, async () => undefined);
    expect(warnings).toEqual([]);
  });

  it("scales both axes to the points' extent, which holds every line", () => {
    expect(pointDomain(points, 'x')).toEqual([3, 5]);
    expect(pointDomain(points, 'y')).toEqual([0, 2]);
    expect(pointDomain([], 'x')).toEqual([0, 1]);
  });

  it('colours by group on request: a colour per group, background memories light grey', () => {
    const grouped = [
      ...points,
      datum('q:2', 'query', 'query', { group: 'travel' }),
      datum('m:a:2', 'memory', 'background memory', { group: NO_GROUP }),
    ];
    const text = JSON.stringify(embeddingMapSpec(grouped, [], { title: 'x', colorBy: 'group' }));
    expect(text).toContain(
      `"field":"group","type":"nominal","scale":{"domain":["food","travel","${NO_GROUP}"],"range":["#0072B2","#E69F00","#DDDDDD"]}`,
    );
    expect(() =>
      compile(embeddingMapSpec(grouped, [], { title: 'x', colorBy: 'group' })),
    ).not.toThrow();
  });

  it("shows the point in words, its text and its score in the tooltip, never 'id: target'", () => {
    const text = JSON.stringify(embeddingMapSpec(points, [], { title: 'x' }));
    expect(text).toContain(
      '"tooltip":[{"field":"title","type":"nominal","title":"point"},{"field":"snippet","type":"nominal","title":"text"},{"field":"score_text","type":"nominal","title":"score"},{"field":"group","type":"nominal","title":"group"}]',
    );
  });

  it('colours target and background as the similarity histogram does', () => {
    const text = JSON.stringify(embeddingMapSpec(points, [], { title: 'x' }));
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

/** The point mark's items (symbols, in the scenegraph): each one's key and drawn size. */
function drawn(view: View): { key: string; size: number }[] {
  const out: { key: string; size: number }[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null || !('items' in node)) return;
    const symbols = 'marktype' in node && node.marktype === 'symbol';
    const items: unknown = node.items;
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!symbols) walk(item);
      else if (typeof item === 'object' && item !== null && 'datum' in item && 'size' in item) {
        const d: unknown = item.datum;
        const size: unknown = item.size;
        if (typeof d === 'object' && d !== null && 'key' in d && typeof d.key === 'string')
          out.push({ key: d.key, size: typeof size === 'number' ? size : -1 });
      }
    }
  };
  // The runtime scenegraph has a `root` that vega-typings leave out.
  const scene: object = view.scenegraph();
  walk('root' in scene ? scene.root : scene);
  return out;
}
