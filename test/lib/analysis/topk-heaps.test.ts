import { describe, expect, it } from 'vitest';
import { Heaps, worse } from '../../../src/lib/analysis/topk-heaps.ts';
import { compareRanked, type ScoredIndex } from '../../../src/lib/analysis/topk.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

describe('k-bounded heaps per query', () => {
  it('ranks lower scores, then NaN, then higher indices as worse', () => {
    expect(worse(0, 0.1, 1, 0.2)).toBe(true);
    expect(worse(0, NaN, 1, -Infinity)).toBe(true);
    expect(worse(2, 0.5, 1, 0.5)).toBe(true);
    expect(worse(1, 0.5, 2, 0.5)).toBe(false);
  });

  it('keeps each query’s k best rows in ascending-index offers, as a full sort would', () => {
    const random = seededRandom(9);
    const heaps = new Heaps(3, 4);
    const all: ScoredIndex[][] = [[], [], []];
    for (let row = 0; row < 200; row++) {
      for (let q = 0; q < 3; q++) {
        const score = row % 17 === 0 ? NaN : Math.round(random() * 20) / 20;
        heaps.offer(q, row, score);
        all[q].push({ index: row, score });
      }
    }
    for (let q = 0; q < 3; q++) {
      expect(heaps.sorted(q)).toEqual(all[q].sort(compareRanked).slice(0, 4));
    }
    const none = new Heaps(1, 0);
    none.offer(0, 0, 1);
    expect(none.sorted(0)).toEqual([]);
  });
});
