import { describe, expect, it } from 'vitest';
import { entryLabel, memoryLists, nearEntries } from '../../../src/lib/map/map-list.ts';
import { mapData } from '../../../src/lib/map/map-points.ts';
import { findMemories } from '../../../src/lib/map/map-search.ts';
import { coords, evaluation, layout } from './map-fixture.ts';

const none = { query: null, memory: null, range: null, series: null, k: 2 };

describe('the map’s memory lists', () => {
  it('are empty with no query and no range', () => {
    const lists = memoryLists(layout, evaluation, mapData(layout, coords, evaluation, none), none);
    expect(lists).toEqual({ top: [], lit: [], litTotal: 0, found: [], foundTotal: 0 });
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

  it('light and list what a search finds, fading the rest, in map order up to the limit', () => {
    const selection = { ...none, found: new Set(findMemories(layout, 'dish')) };
    const data = mapData(layout, coords, evaluation, selection);
    expect(data.found).toBe(2);
    expect(data.points.filter((p) => p.found).map((p) => p.aria)).toEqual([
      'memory | target memory | target | found',
      'memory | target memory | target | found',
    ]);
    expect(data.points.filter((p) => !p.found).every((p) => p.faded)).toBe(true);
    const lists = memoryLists(layout, evaluation, data, selection, 1);
    expect(lists.foundTotal).toBe(2);
    expect(lists.found.map((e) => e.snippet)).toEqual(['I love dish 1 Noted.']);
    // A search that finds nothing still fades the map: nothing on it matches.
    const empty = mapData(layout, coords, evaluation, { ...none, found: new Set<number>() });
    expect(empty.points.every((p) => p.faded)).toBe(true);
  });

  it('list a typed query’s nearest memories with its own ranks and scores', () => {
    const data = mapData(layout, coords, evaluation, none);
    const near = nearEntries(layout, data, [
      { at: 2, score: 0.9 },
      { at: 0, score: 0.5 },
    ]);
    expect(near.map((e) => entryLabel(e, (s) => s.toFixed(1)))).toEqual([
      '#1 · 0.9 · background · ccc',
      '#2 · 0.5 · background · a',
    ]);
  });
});
