import { describe, expect, it } from 'vitest';
import { decodeRows } from '../../../src/lib/analysis/dense-matrix.ts';
import {
  seededRandom,
  syntheticCorpus,
  syntheticQueries,
} from '../../../src/lib/analysis/synthetic-vectors.ts';

describe('synthetic vectors', () => {
  it('are the same for the same seed, and unit length', () => {
    const a = syntheticCorpus(50, 16, 3, 'float32');
    const b = syntheticCorpus(50, 16, 3, 'float32');
    expect(a.data).toEqual(b.data);
    expect(syntheticCorpus(50, 16, 4, 'float32').data).not.toEqual(a.data);
    const rows = decodeRows(a, 0, 50, new Float32Array(0));
    for (let r = 0; r < 50; r++) {
      const row = rows.subarray(r * 16, (r + 1) * 16);
      expect(Math.hypot(...row)).toBeCloseTo(1, 5);
    }
  });

  it('store straight into the storage asked for', () => {
    expect(syntheticCorpus(10, 8, 1, 'float16').data).toBeInstanceOf(Uint16Array);
    expect(syntheticCorpus(10, 8, 1, 'int8').data).toBeInstanceOf(Int8Array);
  });

  it('make unit queries near their target rows', () => {
    const m = syntheticCorpus(100, 32, 1, 'float32');
    const { queries, targets } = syntheticQueries(m, 20, 0.5, 2);
    expect(targets.every((t) => t >= 0 && t < 100)).toBe(true);
    for (let q = 0; q < 20; q++) {
      const v = queries.subarray(q * 32, (q + 1) * 32);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      const t = decodeRows(m, targets[q], targets[q] + 1, new Float32Array(0));
      const cos = v.reduce((s, x, i) => s + x * t[i], 0);
      expect(cos).toBeGreaterThan(0.7);
    }
    const r = seededRandom(9);
    const first = [r(), r()];
    const again = seededRandom(9);
    expect([again(), again()]).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
