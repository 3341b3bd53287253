import { describe, expect, it } from 'vitest';
import {
  formatRange,
  parseRange,
  readMapParams,
  turnLink,
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
    });
    expect(readMapParams({ map: 'tsne', brush: 'x,1', mem: '<b>' })).toEqual({
      method: 'pca',
      range: null,
      series: null,
      memory: null,
    });
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
