import { describe, expect, it } from 'vitest';
import { SimdScorer, simdAvailable, simdFits } from '../../../src/lib/analysis/simd-dot.ts';
import { seededRandom } from '../../../src/lib/analysis/synthetic-vectors.ts';

describe('WebAssembly SIMD dot kernel', () => {
  it('is available in this engine and needs whole 8-float steps', () => {
    expect(simdAvailable()).toBe(true);
    expect(simdFits(384)).toBe(true);
    expect(simdFits(32)).toBe(true);
    expect(simdFits(12)).toBe(false);
    expect(() => new SimdScorer(new Float32Array(12), 12, 4)).toThrow();
  });

  it('matches a float64 dot product to float32 rounding, for each query and row', () => {
    const dim = 48;
    const random = seededRandom(3);
    const queries = Float32Array.from({ length: 3 * dim }, () => random() * 2 - 1);
    const rows = Float32Array.from({ length: 10 * dim }, () => random() * 2 - 1);
    const scorer = new SimdScorer(queries, dim, 16);
    scorer.load(rows);
    for (let q = 0; q < 3; q++) {
      scorer.score(q, 10);
      for (let r = 0; r < 10; r++) {
        let want = 0;
        for (let i = 0; i < dim; i++) want += queries[q * dim + i] * rows[r * dim + i];
        expect(Math.abs(scorer.out[r] - want)).toBeLessThan(1e-5);
      }
    }
    // A shorter block scores only its rows.
    scorer.out.fill(-7);
    scorer.score(0, 2);
    expect(scorer.out[2]).toBe(-7);
  });
});
