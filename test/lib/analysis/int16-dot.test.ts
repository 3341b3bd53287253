import { describe, expect, it } from 'vitest';
import { GROUP, Int16GroupScorer, int16Fits } from '../../../src/lib/analysis/int16-dot.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

const ints = (n: number, max: number, seed: number) => {
  const random = seededRandom(seed);
  return Int16Array.from({ length: n }, () => Math.round((random() * 2 - 1) * max));
};

describe('int16 group dot kernel', () => {
  it('needs WebAssembly SIMD and whole 8-value steps', () => {
    expect(int16Fits(384)).toBe(true);
    expect(int16Fits(20)).toBe(false);
    expect(() => new Int16GroupScorer(new Int16Array(20), 1, 20, 4)).toThrow();
    expect(() => new Int16GroupScorer(new Int16Array(16), 1, 8, 4)).toThrow(RangeError);
  });

  it('gives exact integer sums for each query of each group, zero for the padding', () => {
    const dim = 40;
    const nq = GROUP + 3;
    const n = 7;
    const queries = ints(nq * dim, 2300, 1);
    const rows = ints(n * dim, 2300, 2);
    const scorer = new Int16GroupScorer(queries, nq, dim, 9);
    expect(scorer.groups).toBe(2);
    scorer.rows.set(rows);
    for (let g = 0; g < scorer.groups; g++) {
      scorer.score(g, n);
      for (let r = 0; r < n; r++) {
        for (let j = 0; j < GROUP; j++) {
          const q = g * GROUP + j;
          let want = 0;
          if (q < nq)
            for (let i = 0; i < dim; i++) want += queries[q * dim + i] * rows[r * dim + i];
          expect(scorer.out[r * GROUP + j]).toBe(want);
        }
      }
    }
  });

  it('flags exactly the rows where some sum reaches its query threshold', () => {
    const dim = 16;
    const n = 50;
    const queries = ints(GROUP * dim, 1000, 3);
    const rows = ints(n * dim, 1000, 4);
    const scorer = new Int16GroupScorer(queries, GROUP, dim, n);
    scorer.rows.set(rows);
    const random = seededRandom(5);
    scorer.thresholds.set(Array.from({ length: GROUP }, () => Math.round(random() * 6e6)));
    scorer.score(0, n);
    let flagged = 0;
    for (let r = 0; r < n; r++) {
      const any = Array.from({ length: GROUP }, (_, j) => j).some(
        (j) => scorer.out[r * GROUP + j] >= scorer.thresholds[j],
      );
      expect(scorer.flags[r]).toBe(any ? 1 : 0);
      if (any) flagged++;
    }
    expect(flagged).toBeGreaterThan(0);
    expect(flagged).toBeLessThan(n);
  });
});
