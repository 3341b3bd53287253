import { describe, expect, it } from 'vitest';
import {
  NO_GROUP,
  corpusScores,
  mapData,
  pointTitle,
  queryLabel,
} from '../../../src/lib/map/map-points.ts';
import { coords, evaluation, layout } from './map-fixture.ts';

describe('map layout', () => {
  it('counts the shared background once: 3 turns + 2 targets, then 4 queries', () => {
    expect(layout.memoryCount).toBe(5);
    expect(layout.points.map((p) => p.kind)).toEqual([
      'background',
      'background',
      'background',
      'target',
      'target',
      'query',
      'query',
      'query',
      'query',
    ]);
    expect(layout.dim).toBe(2);
    expect(Array.from(layout.vectors.subarray(0, 2))).toEqual([1, 0]);
    expect(layout.memoryIndex('task-2', 0)).toBe(layout.memoryIndex('task-1', 0));
    expect(layout.targetOf.get(layout.points[3].key)).toEqual(['1:naive', '1:indirect']);
  });

  it('rebuilds a corpus’s scores in doc order from targets and background', () => {
    const o = evaluation.outcomes[0];
    const scores = corpusScores(o, evaluation.backgroundOf.get(o) ?? new Float64Array(0));
    expect(Array.from(scores)).toEqual([0, 0.1, 0.2, 0.3 + 0.5]);
  });
});

describe('map data', () => {
  const none = { query: null, memory: null, range: null, series: null, k: 2 };

  it('lights nothing without a range, and draws no lines without a query', () => {
    const d = mapData(layout, coords, evaluation, none);
    expect(d.lit).toBe(0);
    expect(d.lines).toEqual([]);
    expect(d.points.filter((p) => p.role === 'memory')).toHaveLength(5);
    expect(d.points[0].aria).toBe('memory | background memory | t0');
  });

  it('without a query, a range lights the target pairs in it: targets and their queries', () => {
    const d = mapData(layout, coords, evaluation, { ...none, range: [0.7, 1] });
    // Only the naive queries score their target at 0.8; the indirect ones at 0.3.
    expect(d.points.filter((p) => p.lit).map((p) => p.id)).toEqual([
      'target',
      'target',
      '1:naive',
      '2:naive',
    ]);
    const indirect = mapData(layout, coords, evaluation, {
      ...none,
      range: [0.2, 1],
      series: 'indirect',
    });
    expect(indirect.points.filter((p) => p.lit).map((p) => p.id)).toEqual([
      'target',
      'target',
      '1:indirect',
      '2:indirect',
    ]);
    expect(indirect.litRule).toContain('indirect queries');
  });

  it('with a query, a range lights its memories in it, and its top-k are lines from it', () => {
    const d = mapData(layout, coords, evaluation, {
      ...none,
      query: '2:indirect',
      range: [0.05, 0.25],
    });
    expect(d.points.filter((p) => p.lit).map((p) => p.key)).toEqual([
      layout.points[1].key,
      layout.points[2].key,
    ]);
    const q = layout.queryIndex.get('2:indirect') ?? -1;
    expect(d.points[q].selected).toBe(true);
    // Under a range, what is neither lit nor selected fades: here the other memories and queries.
    expect(d.points.filter((p) => p.faded)).toHaveLength(d.points.length - 3);
    expect(d.points[q].faded).toBe(false);
    expect(d.points[q].aria).toContain('| selected');
    // Top 2 for 2:indirect: its target (0.3), then turn ccc (0.2).
    expect(d.lines).toEqual([
      { x: q, y: -q, x2: 4, y2: -4, rank: 1 },
      { x: q, y: -q, x2: 2, y2: -2, rank: 2 },
    ]);
    expect(d.points[4].score).toBeCloseTo(0.3);
    expect(d.points[3].score).toBeNull();
  });

  it('refuses coordinates that do not fit the points', () => {
    expect(() => mapData(layout, new Float32Array(4), evaluation, none)).toThrow(
      /2 projected points for 9/,
    );
  });
});

describe('map points in words (tooltips and the picked panel)', () => {
  const none = { query: null, memory: null, range: null, series: null, k: 2 };
  const byKey = (key: string) => {
    const p = layout.points.find((x) => x.key === key);
    if (!p) throw new Error(key);
    return p;
  };

  it('names a target by its queries, not "target memory target"; a background turn by its id', () => {
    const target = layout.points.find((p) => p.kind === 'target');
    expect(target && pointTitle(target, layout)).toBe('Target memory of 1:naive, 1:indirect');
    expect(pointTitle(byKey(layout.points[0].key), layout)).toBe('Background memory t0');
    expect(pointTitle(byKey('q:2:indirect'), layout)).toBe('Query 2:indirect');
  });

  it("says a memory's score against the open query, and asks for a query when none is open", () => {
    const idle = mapData(layout, coords, evaluation, none);
    expect(idle.points[0].score_text).toBe('open a query to score the memories against it');
    expect(idle.points.every((p) => !p.score_text.includes('null'))).toBe(true);
    const open = mapData(layout, coords, evaluation, { ...none, query: '2:indirect' });
    expect(open.points[4].score_text).toBe('0.300 against 2:indirect');
    expect(open.points[3].score_text).toBe("not in 2:indirect's corpus");
    expect(open.points[4].title).toBe('Target memory of 2:naive, 2:indirect');
  });

  it("gives each point its query's group; background turns none", () => {
    const d = mapData(layout, coords, evaluation, none);
    expect(d.points.map((p) => p.group)).toEqual([
      NO_GROUP,
      NO_GROUP,
      NO_GROUP,
      'food',
      'food',
      'food',
      'food',
      'food',
      'food',
    ]);
  });

  it('names a query with the start of its text, not as a bare id', () => {
    expect(queryLabel(evaluation, '2:indirect')).toBe('2:indirect ("indirect 2")');
    expect(queryLabel(evaluation, 'nope')).toBe('nope');
  });
});
