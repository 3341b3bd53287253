import { describe, expect, it } from 'vitest';
import {
  mean,
  median,
  quantileSorted,
  sampleStd,
  sortedAscending,
} from '../../../src/lib/analysis/stats.ts';

describe('stats', () => {
  it('mean, median and sample std of a small set, null where undefined', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(mean([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
    expect(sampleStd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138089935, 9);
    expect(sampleStd([1])).toBeNull();
  });

  it('sorts numerically, not as text', () => {
    expect(Array.from(sortedAscending([10, 9, 100, 1]))).toEqual([1, 9, 10, 100]);
  });

  it('interpolates quantiles like numpy (type 7) and keeps equal infinities', () => {
    const sorted = [1, 2, 3, 4, 5];
    expect(quantileSorted(sorted, 0)).toBe(1);
    expect(quantileSorted(sorted, 0.25)).toBe(2);
    expect(quantileSorted(sorted, 0.9)).toBeCloseTo(4.6, 12);
    expect(quantileSorted(sorted, 1)).toBe(5);
    expect(quantileSorted([Infinity, Infinity], 0.5)).toBe(Infinity);
    expect(() => quantileSorted(sorted, 1.5)).toThrow(RangeError);
    expect(() => quantileSorted(sorted, Number.NaN)).toThrow(RangeError);
  });
});
