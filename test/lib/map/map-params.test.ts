import { describe, expect, it } from 'vitest';
import {
  formatRange,
  parseRange,
  readMapParams,
  turnLink,
  typedRange,
} from '../../../src/lib/map/map-params.ts';

describe('map params', () => {
  it('reads method, range and picked memory, with defaults for anything else', () => {
    expect(
      readMapParams({ map: 'umap', brush: '0.5,0.1', bseries: 'naive', mem: 'm:lme:3' }),
    ).toEqual({
      method: 'umap',
      range: [0.1, 0.5],
      series: 'naive',
      memory: 'm:lme:3',
      colorBy: 'kind',
      search: '',
      near: '',
    });
    expect(readMapParams({ map: 'tsne', brush: 'x,1', mem: '<b>' })).toEqual({
      method: 'pca',
      range: null,
      series: null,
      memory: null,
      colorBy: 'kind',
      search: '',
      near: '',
    });
    expect(readMapParams({ mapcolor: 'group' }).colorBy).toBe('group');
    expect(readMapParams({ mapcolor: '<b>' }).colorBy).toBe('kind');
  });

  it('reads the search and the typed query as untrusted text: cleaned and cut short', () => {
    const read = readMapParams({ find: '  tree\u0000 nut\n\n allergy ', near: 'x'.repeat(5000) });
    expect(read.search).toBe('tree nut allergy');
    expect(read.near).toHaveLength(200);
    expect(readMapParams({ find: '<img src=x onerror=alert(1)>' }).search).toBe(
      '<img src=x onerror=alert(1)>',
    );
  });

  it('reads a typed score range in either order, naming a field that is not a number', () => {
    expect(typedRange('0.5', ' 0.2 ')).toEqual([0.2, 0.5]);
    expect(typedRange('-1', '1')).toEqual([-1, 1]);
    expect(typedRange('', '0.4')).toBe('"from" must be a number (got "")');
    expect(typedRange('0.1', 'abc')).toBe('"to" must be a number (got "abc")');
  });

  it('writes a range that reads back the same', () => {
    const text = formatRange([0.123456, 0.5]);
    expect(text).toBe('0.1235,0.5000');
    expect(parseRange(text ?? '')).toEqual([0.1235, 0.5]);
    expect(formatRange(null)).toBeNull();
    expect(parseRange('1,')).toBeNull();
    expect(parseRange(undefined)).toBeNull();
  });
});

describe('turn links', () => {
  it('points an InMind background memory at its turn in the conversation viewer, and nothing else', () => {
    expect(turnLink('inmind', 'background', 'session-1-turn-0')).toEqual({
      page: 'benchmarks',
      params: { dataset: 'inmind-background', conv: 'lme_s_background', turn: 'session-1-turn-0' },
    });
    expect(turnLink('inmind', 'target', 'target')).toBeNull();
    expect(turnLink('locomo', 'background', 'D1:3')).toBeNull();
  });
});
