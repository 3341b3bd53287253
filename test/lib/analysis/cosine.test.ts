import { describe, expect, it } from 'vitest';
import {
  cosineScoresAll,
  cosineSimilarity,
  l2Normalize,
  normalizeRowsInPlace,
  topKByCosine,
} from '../../../src/lib/analysis/cosine.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

const mulberry32 = seededRandom;

function bruteForce(query: Float32Array, matrix: Float32Array, dim: number) {
  const rows = [];
  for (let r = 0; r < matrix.length / dim; r++) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += query[i] * matrix[r * dim + i];
    rows.push({ index: r, score: s });
  }
  return rows.sort((a, b) => b.score - a.score || a.index - b.index);
}

describe('cosine', () => {
  it('computes cosine and normalises, leaving zero vectors at zero', () => {
    // (1,0)·(1,1) / (1 * sqrt 2)
    expect(cosineSimilarity([1, 0], [1, 1])).toBeCloseTo(Math.SQRT1_2, 15);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(Array.from(l2Normalize([3, 4]))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(normalizeRowsInPlace(new Float32Array([0, 0, 0, 2]), 2))).toEqual([
      0, 0, 0, 1,
    ]);
  });

  it('topKByCosine matches a brute-force sort on seeded random vectors, ties by index', () => {
    const rand = mulberry32(12345);
    const dim = 16;
    const count = 500;
    const matrix = new Float32Array(dim * count);
    for (let i = 0; i < matrix.length; i++) matrix[i] = rand() * 2 - 1;
    // rows 10 and 400 duplicate rows 5 and 300 so exact ties exist
    matrix.copyWithin(10 * dim, 5 * dim, 6 * dim);
    matrix.copyWithin(400 * dim, 300 * dim, 301 * dim);
    normalizeRowsInPlace(matrix, dim);
    for (let trial = 0; trial < 5; trial++) {
      const query = l2Normalize(Array.from({ length: dim }, () => rand() * 2 - 1));
      const expected = bruteForce(query, matrix, dim);
      for (const k of [1, 7, 50, count, count + 20]) {
        expect(topKByCosine(query, matrix, dim, k)).toEqual(expected.slice(0, k));
      }
      const all = cosineScoresAll(query, matrix, dim);
      expect(all[10]).toBe(all[5]);
      expected.forEach(({ index, score }) => expect(all[index]).toBe(score));
    }
    const tieQuery = matrix.slice(5 * dim, 6 * dim);
    expect(topKByCosine(tieQuery, matrix, dim, 2).map((r) => r.index)).toEqual([5, 10]);
    expect(topKByCosine(tieQuery, matrix, dim, 0)).toEqual([]);
  });

  it('rejects mismatched shapes', () => {
    expect(() => cosineScoresAll(new Float32Array(3), new Float32Array(8), 4)).toThrow(RangeError);
    expect(() => topKByCosine(new Float32Array(4), new Float32Array(7), 4, 1)).toThrow(RangeError);
  });
});
