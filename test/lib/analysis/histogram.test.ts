import { describe, expect, it } from 'vitest';
import { histogram, kdeDensity, silvermanBandwidth } from '../../../src/lib/analysis/histogram.ts';

function nextDown(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x > 0 ? bits - 1n : bits + 1n);
  return view.getFloat64(0);
}

describe('histogram', () => {
  it('places min, max, edge and out-of-range values', () => {
    // edges 0, .25, .5, .75, 1
    const h = histogram([0, 1, nextDown(0.5), 0.5, 0.75, -0.1, 1.5, NaN], {
      min: 0,
      max: 1,
      bins: 4,
    });
    expect(h.edges).toEqual([0, 0.25, 0.5, 0.75, 1]);
    // 0 -> bin 0; just below .5 -> bin 1; .5 -> bin 2; .75 and max 1 -> bin 3
    expect(h.counts).toEqual([1, 1, 1, 2]);
    expect([h.underflow, h.overflow, h.nan, h.inRange]).toEqual([1, 1, 1, 5]);
    expect(h.density).toBeNull();
  });

  it('agrees with its own edges even where index arithmetic rounds', () => {
    const ranges: [number, number, number][] = [
      [0.1, 0.7, 3],
      [-1, 1, 7],
      [0.3, 0.9, 6],
      [-0.2, 0.95, 23],
    ];
    for (const [min, max, bins] of ranges) {
      const { edges } = histogram([], { min, max, bins });
      expect(edges).toHaveLength(bins + 1);
      expect([edges[0], edges[bins]]).toEqual([min, max]);
      for (let i = 1; i < bins; i++) {
        const onEdge = histogram([edges[i]], { min, max, bins }).counts;
        const below = histogram([nextDown(edges[i])], { min, max, bins }).counts;
        expect(onEdge.indexOf(1)).toBe(i);
        expect(below.indexOf(1)).toBe(i - 1);
      }
    }
  });

  it('normalises density so sum(density * width) = 1 over in-range values', () => {
    // in range: .1, .2, .6 (n = 3), width .5 -> densities 2 / (3 * .5), 1 / (3 * .5)
    const h = histogram([0.1, 0.2, 0.6, 5], { min: 0, max: 1, bins: 2, density: true });
    expect(h.density).toEqual([2 / 1.5, 1 / 1.5]);
    const area = (h.density ?? []).reduce((s, d, i) => s + d * (h.edges[i + 1] - h.edges[i]), 0);
    expect(area).toBeCloseTo(1, 12);
    expect(histogram([], { min: 0, max: 1, bins: 2, density: true }).density).toEqual([0, 0]);
  });

  it('rejects invalid ranges', () => {
    expect(() => histogram([1], { min: 1, max: 1, bins: 2 })).toThrow(RangeError);
    expect(() => histogram([1], { min: 0, max: 1, bins: 0 })).toThrow(RangeError);
  });
});

describe('kdeDensity', () => {
  it('uses Silverman: 0.9 * min(sd, IQR / 1.34) * n^(-1/5)', () => {
    // [1..5]: sd = sqrt(10 / 4); quartiles 2 and 4 -> IQR / 1.34 = 2 / 1.34 < sd
    expect(silvermanBandwidth([5, 1, 4, 2, 3])).toBeCloseTo(0.9 * (2 / 1.34) * 5 ** -0.2, 14);
  });

  it('is a normal pdf for one point and integrates to 1', () => {
    expect(kdeDensity([0], [0, 1], 1)[0]).toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 15);
    // exp(-1/2) / sqrt(2 pi) at one bandwidth away
    expect(kdeDensity([0], [0, 1], 1)[1]).toBeCloseTo(Math.exp(-0.5) / Math.sqrt(2 * Math.PI), 15);
    const grid = Array.from({ length: 2001 }, (_, i) => -10 + i * 0.01);
    const d = kdeDensity([-1, 0, 0.5, 2], grid);
    let area = 0;
    for (let i = 1; i < grid.length; i++) area += ((d[i] + d[i - 1]) / 2) * 0.01;
    expect(area).toBeCloseTo(1, 6);
    expect(Array.from(kdeDensity([], [0, 1]))).toEqual([0, 0]);
  });
});
