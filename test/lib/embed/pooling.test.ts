import { describe, expect, it } from 'vitest';
import {
  clsPool,
  l2Normalize,
  meanPool,
  pool,
  type HiddenStates,
} from '../../../src/lib/embed/pooling.ts';

// batch 2, seq 3, dim 2. Row 0 has 2 real tokens + 1 pad; row 1 has 3 real tokens.
const hidden: HiddenStates = {
  data: Float32Array.from([1, 2, 3, 4, 100, -100, 0, 1, 2, 3, 4, 5]),
  batch: 2,
  seq: 3,
  dim: 2,
};
const mask = [1, 1, 0, 1, 1, 1];

describe('meanPool', () => {
  it('averages only the unmasked tokens', () => {
    // Row 0: ((1+3)/2, (2+4)/2) = (2, 3); the padded (100, -100) must not count.
    // Row 1: ((0+2+4)/3, (1+3+5)/3) = (2, 3).
    expect(Array.from(meanPool(hidden, mask))).toEqual([2, 3, 2, 3]);
  });

  it('accepts int64 masks as bigint', () => {
    const bigMask = BigInt64Array.from(mask.map(BigInt));
    expect(Array.from(meanPool(hidden, bigMask))).toEqual([2, 3, 2, 3]);
  });

  it('gives a zero vector for an all-padding row instead of NaN', () => {
    expect(Array.from(meanPool(hidden, [0, 0, 0, 1, 1, 1]))).toEqual([0, 0, 2, 3]);
  });

  it('rejects a mask of the wrong size', () => {
    expect(() => meanPool(hidden, [1, 1])).toThrow(/attention mask/);
  });
});

describe('clsPool', () => {
  it('takes position 0 of each sequence', () => {
    expect(Array.from(clsPool(hidden))).toEqual([1, 2, 0, 1]);
  });
});

describe('l2Normalize', () => {
  it('scales each row to unit length', () => {
    // (3, 4) has norm 5; (0, -2) has norm 2.
    expect(Array.from(l2Normalize(Float32Array.from([3, 4, 0, -2]), 2))).toEqual(
      [0.6, 0.8, 0, -1].map(Math.fround),
    );
  });

  it('leaves a zero row at zero', () => {
    expect(Array.from(l2Normalize(new Float32Array(3), 3))).toEqual([0, 0, 0]);
  });
});

describe('pool', () => {
  it('applies the registry pooling and normalisation', () => {
    const meanNormed = pool(hidden, mask, { pooling: 'mean', normalize: true });
    const expected = [2 / Math.sqrt(13), 3 / Math.sqrt(13)].map(Math.fround);
    expect(Array.from(meanNormed)).toEqual([...expected, ...expected]);
    expect(Array.from(pool(hidden, mask, { pooling: 'cls', normalize: false }))).toEqual([
      1, 2, 0, 1,
    ]);
  });
});
