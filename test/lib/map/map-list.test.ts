import { describe, expect, it } from 'vitest';
import { entryLabel, memoryLists } from '../../../src/lib/map/map-list.ts';
import { mapData } from '../../../src/lib/map/map-points.ts';
import { coords, evaluation, layout } from './map-fixture.ts';

const none = { query: null, memory: null, range: null, series: null, k: 2 };

describe('the map’s memory lists', () => {
  it('are empty with no query and no range', () => {
    const lists = memoryLists(layout, evaluation, mapData(layout, coords, evaluation, none), none);
    expect(lists).toEqual({ top: [], lit: [], litTotal: 0 });
  });

  it('list the selected query’s top-k in rank order, with role and score', () => {
    const selection = { ...none, query: '2:indirect' };
    const data = mapData(layout, coords, evaluation, selection);
    const { top } = memoryLists(layout, evaluation, data, selection);
    // Top 2 for 2:indirect: its target (0.3), then turn ccc (0.2).
    expect(top.map((e) => [e.rank, e.role, e.id, e.key])).toEqual([
      [1, 'target', 'target', layout.points[4].key],
      [2, 'background', 't2', layout.points[2].key],
    ]);
    expect(top[0].score).toBeCloseTo(0.3);
    expect(entryLabel(top[1], (s) => s.toFixed(2))).toBe('#2 · 0.20 · background · ccc');
  });

  it('list the lit memories by score (queries left out), up to the limit', () => {
    const selection = { ...none, query: '2:indirect', range: [0, 0.25] as const };
    const data = mapData(layout, coords, evaluation, selection);
    const lists = memoryLists(layout, evaluation, data, selection, 2);
    expect(lists.litTotal).toBe(3);
    expect(lists.lit.map((e) => [e.id, e.rank])).toEqual([
      ['t2', 2],
      ['t1', null],
    ]);
  });

  it('without a query, list the lit targets with no score or rank', () => {
    const selection = { ...none, range: [0.7, 1] as const };
    const data = mapData(layout, coords, evaluation, selection);
    const lists = memoryLists(layout, evaluation, data, selection);
    expect(lists.lit.map((e) => e.role)).toEqual(['target', 'target']);
    expect(entryLabel(lists.lit[0], String)).toBe('target · I love dish 1 Noted.');
  });
});
