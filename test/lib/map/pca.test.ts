import { describe, expect, it } from 'vitest';
import { pca2 } from '../../../src/lib/map/pca.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

// An orthonormal basis of R^3 (a rotation), chosen so no axis lies along a coordinate axis.
const E1 = [0.6, 0.8, 0];
const E2 = [-0.48, 0.36, 0.8];
const E3 = [0.64, -0.48, 0.6];

function rows(points: number[][]): Float32Array {
  return Float32Array.from(points.flat());
}

/** ±3 along E1, ±2 along E2, ±0.5 along E3, shifted by a constant: the axes are E1 then E2. */
function star(): number[][] {
  const shift = [0.3, -0.1, 0.7];
  const out: number[][] = [];
  for (const [axis, length] of [
    [E1, 3],
    [E2, 2],
    [E3, 0.5],
  ] as const) {
    for (const s of [1, -1]) out.push(axis.map((a, i) => s * length * a + shift[i]));
  }
  return out;
}

describe('pca2', () => {
  it('finds the known axes, their variance shares and each point’s coordinates', () => {
    const { axes, explained, coords } = pca2(rows(star()), 6, 3);
    // Sign: each axis's largest-magnitude component is positive (E1 as given, E2 as given).
    [E1, E2].forEach((axis, a) => axis.forEach((v, i) => expect(axes[a][i]).toBeCloseTo(v, 6)));
    const total = 9 + 4 + 0.25;
    expect(explained[0]).toBeCloseTo(9 / total, 6);
    expect(explained[1]).toBeCloseTo(4 / total, 6);
    const expected = [3, 0, -3, 0, 0, 2, 0, -2, 0, 0, 0, 0];
    expected.forEach((v, i) => expect(coords[i]).toBeCloseTo(v, 5));
  });

  it('gives the same coordinates for the same vectors, and flips no sign when rows are reordered', () => {
    const random = seededRandom(7);
    const dim = 24;
    const n = 80;
    const data = Float32Array.from({ length: n * dim }, (_, i) => random() * (1 + (i % dim)));
    const a = pca2(data, n, dim);
    const b = pca2(data, n, dim);
    expect(Array.from(b.coords)).toEqual(Array.from(a.coords));
    const reversed = new Float32Array(n * dim);
    for (let i = 0; i < n; i++)
      reversed.set(data.subarray(i * dim, (i + 1) * dim), (n - 1 - i) * dim);
    const r = pca2(reversed, n, dim);
    for (let i = 0; i < n; i++) {
      expect(r.coords[(n - 1 - i) * 2]).toBeCloseTo(a.coords[i * 2], 4);
      expect(r.coords[(n - 1 - i) * 2 + 1]).toBeCloseTo(a.coords[i * 2 + 1], 4);
    }
  });

  it('puts a single row, or rows all alike, at the origin', () => {
    expect(Array.from(pca2(rows([[1, 2, 3]]), 1, 3).coords)).toEqual([0, 0]);
    const same = pca2(
      rows([
        [0.5, 0.5],
        [0.5, 0.5],
      ]),
      2,
      2,
    );
    expect(Array.from(same.coords)).toEqual([0, 0, 0, 0]);
    expect(same.explained).toEqual([0, 0]);
  });

  it('names a matrix that does not fit its shape', () => {
    expect(() => pca2(new Float32Array(5), 2, 3)).toThrow(/5 values are not 2 rows × 3/);
    expect(() => pca2(new Float32Array(0), 0, 3)).toThrow(/n ≥ 1/);
  });
});
