import { describe, expect, it } from 'vitest';
import {
  chooseStorage,
  decodeRows,
  packRows,
  storageBytes,
  toFloat16Bits,
  type VectorStorage,
} from '../../../src/lib/analysis/dense-matrix.ts';
import { seededRandom } from '../../../src/lib/analysis/synthetic-vectors.ts';

describe('dense matrix storage', () => {
  it('keeps float32 up to the budget, then float16, then int8', () => {
    expect(chooseStorage(100_000, 384)).toBe('float32');
    expect(chooseStorage(1_000_000, 384)).toBe('float16');
    expect(chooseStorage(2_000_000, 384)).toBe('int8');
    expect(chooseStorage(10, 10, 200)).toBe('float16');
    expect(chooseStorage(10, 10, 100)).toBe('int8');
  });

  it('round-trips values within each format’s precision', () => {
    const random = seededRandom(1);
    const v = Float32Array.from({ length: 64 }, () => random() * 2 - 1);
    for (const [storage, tol] of [
      ['float32', 0],
      ['float16', 1e-3],
      ['int8', 1 / 127],
    ] as [VectorStorage, number][]) {
      const m = packRows([v], 64, storage);
      const back = decodeRows(m, 0, 1, new Float32Array(64));
      for (let i = 0; i < 64; i++) expect(Math.abs(back[i] - v[i])).toBeLessThanOrEqual(tol);
    }
  });

  it('encodes float16 exactly where the value is representable, with infinities and NaN', () => {
    const m = packRows([Float32Array.of(0, -0, 1, -2, 65504, 1e6, 2 ** -24, NaN)], 8, 'float16');
    const back = Array.from(decodeRows(m, 0, 1, new Float32Array(8)));
    expect(back.slice(0, 7)).toEqual([0, -0, 1, -2, 65504, Infinity, 2 ** -24]);
    expect(back[7]).toBeNaN();
  });

  it('counts bytes per storage, int8 with its per-row scales', () => {
    expect(storageBytes(10, 4, 'float32')).toBe(160);
    expect(storageBytes(10, 4, 'float16')).toBe(80);
    expect(storageBytes(10, 4, 'int8')).toBe(80);
    expect(toFloat16Bits(1)).toBe(0x3c00);
    expect(toFloat16Bits(-2)).toBe(0xc000);
    expect(toFloat16Bits(1 + 2 ** -11)).toBe(0x3c00);
  });
});
