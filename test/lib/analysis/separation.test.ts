import { describe, expect, it } from 'vitest';
import { ksStatistic, rocAuc, separationStats } from '../../../src/lib/analysis/separation.ts';

describe('rocAuc', () => {
  it('counts tied pairs as 1/2', () => {
    // Pairs (target, background): 0.9>0.5 1, 0.9>0.3 1, 0.5=0.5 ½, 0.5>0.3 1, 0.5=0.5 ½,
    // 0.5>0.3 1 -> U = 5 of 3 * 2 = 6 pairs. Midranks agree: 0.3 ->1, the three 0.5 -> 3,
    // 0.9 -> 5; R1 = 5 + 3 + 3 = 11, U = 11 - 3 * 4 / 2 = 5.
    expect(rocAuc([0.9, 0.5, 0.5], [0.5, 0.3])).toBe(5 / 6);
  });

  it('is 1 for perfect separation, 0 for reversed, 0.5 for identical groups', () => {
    expect(rocAuc([3, 4], [1, 2])).toBe(1);
    expect(rocAuc([1, 2], [3, 4])).toBe(0);
    // every one of the 2 * 3 pairs ties -> 6 * ½ / 6
    expect(rocAuc([7, 7], [7, 7, 7])).toBe(0.5);
    // interleaved: 2>1 1, 2<3 0, 4>1 1, 4>3 1 -> 3 / 4
    expect(rocAuc([2, 4], [1, 3])).toBe(0.75);
  });

  it('is null for an empty group and rejects NaN', () => {
    expect(rocAuc([], [1])).toBeNull();
    expect(rocAuc([1], [])).toBeNull();
    expect(() => rocAuc([NaN], [1])).toThrow(RangeError);
  });
});

describe('ksStatistic', () => {
  it('steps both CDFs past tied values before comparing', () => {
    // target [1,2,2,3], background [2,2,4,5]; (F1, F0) after each distinct value:
    // 1: (1/4, 0) .25 | 2: (3/4, 2/4) .25 | 3: (1, 2/4) .5 | 4: (1, 3/4) .25 | 5: (1, 1) 0.
    // Stepping one tie at a time would wrongly see (3/4, 0) = .75 at 2.
    expect(ksStatistic([1, 2, 2, 3], [2, 2, 4, 5])).toBe(0.5);
    expect(ksStatistic([5, 5, 5], [5, 5])).toBe(0);
    expect(ksStatistic([1, 2], [3, 4])).toBe(1);
    expect(ksStatistic([], [1])).toBeNull();
  });
});

describe('separationStats', () => {
  it('reports means, medians, gaps (target minus background), AUC and KS', () => {
    const s = separationStats([0.9, 0.5, 0.5], [0.5, 0.3]);
    // means 1.9 / 3 and 0.8 / 2; medians 0.5 and (0.3 + 0.5) / 2
    expect(s.target).toEqual({ n: 3, mean: expect.closeTo(1.9 / 3, 15), median: 0.5 });
    expect(s.background).toEqual({ n: 2, mean: 0.4, median: 0.4 });
    expect(s.meanGap).toBeCloseTo(1.9 / 3 - 0.4, 15);
    expect(s.medianGap).toBeCloseTo(0.1, 15);
    expect(s.auc).toBe(5 / 6);
    // 0.3: (0, 1/2) .5 | 0.5: (2/3, 1) 1/3 | 0.9: (1, 1) 0
    expect(s.ks).toBe(0.5);
  });

  it('leaves gaps null when a group is empty', () => {
    const s = separationStats([1, 2], []);
    expect(s.background).toEqual({ n: 0, mean: null, median: null });
    expect([s.meanGap, s.medianGap, s.auc, s.ks]).toEqual([null, null, null, null]);
  });
});
