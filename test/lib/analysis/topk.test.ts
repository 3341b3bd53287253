import { describe, expect, it } from 'vitest';
import { TopKSelector, topKOfScores } from '../../../src/lib/analysis/topk.ts';

describe('topKOfScores', () => {
  it('ranks by score desc, ties by lower index, NaN last', () => {
    const scores = [0.2, NaN, 0.9, 0.2, -1, 0.9];
    expect(topKOfScores(scores, 3)).toEqual([
      { index: 2, score: 0.9 },
      { index: 5, score: 0.9 },
      { index: 0, score: 0.2 },
    ]);
    expect(topKOfScores(scores, Infinity).map((r) => r.index)).toEqual([2, 5, 0, 3, 4, 1]);
  });

  it('keeps the same items whatever order they stream in', () => {
    const selector = new TopKSelector(2);
    // pushed out of index order: the tie at 0.5 must still keep index 1 over index 4
    for (const [i, s] of [
      [4, 0.5],
      [0, 0.1],
      [1, 0.5],
      [3, 0.7],
    ] as const)
      selector.push(i, s);
    expect(selector.result()).toEqual([
      { index: 3, score: 0.7 },
      { index: 1, score: 0.5 },
    ]);
    expect(() => new TopKSelector(-1)).toThrow(RangeError);
    expect(() => new TopKSelector(2.5)).toThrow(RangeError);
  });
});
