import { describe, expect, it } from 'vitest';
import {
  int16Limit,
  quantizeBlock,
  quantizeQueries,
} from '../../../src/lib/analysis/int16-quantize.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

const floats = (n: number, seed: number, size = 1) => {
  const random = seededRandom(seed);
  return Float32Array.from({ length: n }, () => (random() * 2 - 1) * size);
};

describe('int16 quantization for the screen', () => {
  it('keeps dim × limit² below 2³¹, so no kernel sum can overflow', () => {
    for (const dim of [8, 384, 768, 1024, 4096]) {
      const limit = int16Limit(dim);
      expect(dim * limit * limit).toBeLessThan(2 ** 31);
      expect(limit).toBeLessThanOrEqual(32767);
    }
    expect(int16Limit(384)).toBe(2364);
  });

  it('bounds every approximate dot product by residual × L1 norms', () => {
    const dim = 64;
    const nq = 5;
    const n = 30;
    const queries = floats(nq * dim, 1);
    const rows = floats(n * dim, 2, 3);
    const qq = quantizeQueries(queries, dim);
    const out = new Int16Array(n * dim);
    const bq = quantizeBlock(rows, n, dim, out);
    expect(qq.finite && bq.finite).toBe(true);
    let worstShare = 0;
    for (let q = 0; q < nq; q++) {
      for (let r = 0; r < n; r++) {
        let exact = 0;
        let sum = 0;
        for (let i = 0; i < dim; i++) {
          exact += queries[q * dim + i] * rows[r * dim + i];
          sum += qq.values[q * dim + i] * out[r * dim + i];
        }
        const approx = sum * qq.scale[q] * bq.scale;
        const bound = bq.residual * qq.roundedL1[q] + qq.residual[q] * bq.maxL1;
        expect(Math.abs(exact - approx)).toBeLessThanOrEqual(bound);
        worstShare = Math.max(worstShare, Math.abs(exact - approx) / bound);
      }
    }
    // The bound is a worst case; it is not vacuous either.
    expect(worstShare).toBeGreaterThan(0.01);
    for (let i = 0; i < out.length; i++) {
      expect(Math.abs(out[i])).toBeLessThanOrEqual(int16Limit(dim));
      expect(Math.abs(rows[i] - out[i] * bq.scale)).toBeLessThanOrEqual(bq.residual);
    }
  });

  it('says when values are not finite, and maps a zero block to zeros', () => {
    expect(quantizeQueries(Float32Array.of(1, NaN, 0, 0, 0, 0, 0, 0), 8).finite).toBe(false);
    const out = new Int16Array(8);
    expect(quantizeBlock(Float32Array.of(0, 0, Infinity, 0, 0, 0, 0, 0), 1, 8, out).finite).toBe(
      false,
    );
    const nan = Float32Array.of(0.5, NaN, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
    expect(quantizeBlock(nan, 2, 8, new Int16Array(16)).finite).toBe(false);
    const zero = quantizeBlock(new Float32Array(8), 1, 8, out);
    expect(zero).toMatchObject({ scale: 0, residual: 0, maxL1: 0, finite: true });
    expect(Array.from(out)).toEqual(new Array(8).fill(0));
  });
});
