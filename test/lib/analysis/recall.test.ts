import { describe, expect, it } from 'vitest';
import {
  goldRanks,
  hitAtK,
  meanRecall,
  meanRecallCurve,
  recallAtK,
  recallCurve,
} from '../../../src/lib/analysis/recall.ts';

const retrieved = ['a', 'b', 'a', 'c', 'd'];
const gold = ['a', 'a', 'c', 'x'];
const corpus = new Set(['a', 'b', 'c', 'd']);

describe('recallAtK', () => {
  it('de-duplicates gold and retrieved ids and keeps unknown gold in the denominator', () => {
    // distinct gold {a, c, x} -> 3; x is not in the corpus.
    // k = 3: positions [a, b, a] -> {a} -> 1 / 3 (the repeated a counts once)
    expect(recallAtK(retrieved, gold, 3, corpus)).toEqual({
      recall: 1 / 3,
      hits: 1,
      goldCount: 3,
      unknownGold: ['x'],
    });
    // k = 4: [a, b, a, c] -> {a, c} -> 2 / 3
    expect(recallAtK(retrieved, gold, 4, corpus)?.recall).toBe(2 / 3);
    // k beyond the list: still 2 / 3, x can never be found
    expect(recallAtK(retrieved, gold, 50)?.recall).toBe(2 / 3);
    expect(recallAtK(retrieved, gold, 50)?.unknownGold).toEqual([]);
    expect(recallAtK(retrieved, gold, 0)?.recall).toBe(0);
  });

  it('returns null for empty gold and rejects a bad k', () => {
    expect(recallAtK(retrieved, [], 5)).toBeNull();
    expect(() => recallAtK(retrieved, gold, -1)).toThrow(RangeError);
    expect(() => recallAtK(retrieved, gold, 1.5)).toThrow(RangeError);
  });
});

describe('hitAtK', () => {
  it('is 1 when any gold id is in the top k', () => {
    expect(hitAtK(retrieved, gold, 1)).toBe(1);
    expect(hitAtK(['b', 'd', 'c'], gold, 2)).toBe(0);
    expect(hitAtK(['b', 'd', 'c'], gold, 3)).toBe(1);
    expect(hitAtK(retrieved, [], 3)).toBeNull();
  });
});

describe('meanRecall', () => {
  it('skips null (empty-gold) queries and reports them', () => {
    // (1/3 + 1) / 2 = 2/3
    expect(meanRecall([1 / 3, null, 1])).toEqual({ mean: 2 / 3, counted: 2, skipped: 1 });
    expect(meanRecall([null])).toEqual({ mean: null, counted: 0, skipped: 1 });
  });
});

describe('recallCurve', () => {
  it('gives recall@k for k = 1..kMax from gold ranks', () => {
    // first positions: a -> 1, c -> 4, x -> never
    const ranks = goldRanks(retrieved, gold);
    expect(ranks).toEqual([1, 4, null]);
    const curve = recallCurve(ranks, 6);
    expect(Array.from(curve ?? [])).toEqual([1 / 3, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 2 / 3]);
    for (let k = 1; k <= 6; k++) {
      expect(curve?.[k - 1]).toBe(recallAtK(retrieved, gold, k)?.recall);
    }
    expect(recallCurve([], 5)).toBeNull();
    expect(() => recallCurve([0], 5)).toThrow(RangeError);
  });

  it('averages curves skipping nulls', () => {
    // ([1/2, 1] + [0, 1/2]) / 2
    const m = meanRecallCurve([recallCurve([1, 2], 2), null, recallCurve([2, null], 2)]);
    expect(Array.from(m.mean ?? [])).toEqual([0.25, 0.75]);
    expect([m.counted, m.skipped]).toEqual([2, 1]);
  });
});
