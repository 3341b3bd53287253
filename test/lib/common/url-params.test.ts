import { describe, expect, it } from 'vitest';
import {
  decodeList,
  encodeList,
  legendChange,
  legendKey,
  nextSort,
  readLegend,
  readSort,
  sortChange,
  type SortKeys,
} from '../../../src/lib/common/url-params.ts';
import { formatHash, parseHash } from '../../../src/lib/common/url-state.ts';

describe('lists in one parameter', () => {
  it('round-trips values holding commas and percent signs', () => {
    const values = ['Recall (asked for, or retrieved)', '100%', '%2C literally', 'plain'];
    const text = encodeList(values);
    expect(text.split(',')).toHaveLength(values.length);
    expect(decodeList(text)).toEqual(values);
  });

  it('survives the hash: encoded, parsed and decoded again', () => {
    const values = ['Δ Recall − Naive', '+ Query Rewriting', 'a,b'];
    const hash = formatHash({ page: 'memuse', params: { [legendKey('c1')]: encodeList(values) } });
    expect(readLegend(parseHash(hash).params, 'c1')).toEqual(values);
  });

  it('reads nothing from an absent or empty parameter, and drops empty parts', () => {
    expect(decodeList(undefined)).toEqual([]);
    expect(decodeList('')).toEqual([]);
    expect(decodeList('a,,b')).toEqual(['a', 'b']);
  });
});

describe('legend picks', () => {
  it('lives under legend.<chart id>, cleared when nothing is picked', () => {
    expect(legendChange('memuse-figure1', ['Direct QA'])).toEqual({
      'legend.memuse-figure1': 'Direct QA',
    });
    expect(legendChange('memuse-figure1', [])).toEqual({ 'legend.memuse-figure1': null });
    expect(readLegend({ 'legend.other': 'x' }, 'memuse-figure1')).toEqual([]);
  });
});

describe('table sorts', () => {
  const keys: SortKeys<'rank' | 'name'> = {
    column: 'qsort',
    dir: 'qdir',
    columns: ['rank', 'name'],
    fallback: { column: 'rank', descending: false },
  };

  it('reads a known column and its direction; anything else is the table order', () => {
    expect(readSort({ qsort: 'name', qdir: 'desc' }, keys)).toEqual({
      column: 'name',
      descending: true,
    });
    expect(readSort({ qsort: 'name' }, keys)).toEqual({ column: 'name', descending: false });
    expect(readSort({ qsort: 'drop table', qdir: 'desc' }, keys)).toEqual(keys.fallback);
    expect(readSort({}, keys)).toEqual(keys.fallback);
  });

  it('writes only what differs from the table order', () => {
    expect(sortChange(keys, { column: 'name', descending: true })).toEqual({
      qsort: 'name',
      qdir: 'desc',
    });
    expect(sortChange(keys, { column: 'rank', descending: true })).toEqual({
      qsort: 'rank',
      qdir: 'desc',
    });
    expect(sortChange(keys, keys.fallback)).toEqual({ qsort: null, qdir: null });
  });

  it('flips the direction on the same column and starts ascending on another', () => {
    expect(nextSort({ column: 'rank', descending: false }, 'rank')).toEqual({
      column: 'rank',
      descending: true,
    });
    expect(nextSort({ column: 'rank', descending: true }, 'name')).toEqual({
      column: 'name',
      descending: false,
    });
  });
});
