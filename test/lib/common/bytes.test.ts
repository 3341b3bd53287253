import { describe, expect, it } from 'vitest';
import { concatBytes, joinBytes } from '../../../src/lib/common/bytes.ts';

describe('joinBytes', () => {
  it('copies the parts in order into a buffer of their summed length', () => {
    const a = new Uint8Array([1, 2]);
    const out = joinBytes([a, new Uint8Array([3]), new Uint8Array()]);
    expect([...out]).toEqual([1, 2, 3]);
    expect(out.buffer.byteLength).toBe(3);
  });

  it('copies a single part, so its buffer is its own', () => {
    const big = new Uint8Array([9, 8, 7, 6]);
    const out = joinBytes([big.subarray(1, 3)]);
    expect([...out]).toEqual([8, 7]);
    expect(out.buffer).not.toBe(big.buffer);
  });
});

describe('concatBytes', () => {
  it('hands back a single part uncopied and joins several', () => {
    const one = new Uint8Array([5]);
    expect(concatBytes([one], 1)).toBe(one);
    expect([...concatBytes([one, new Uint8Array([6])], 2)]).toEqual([5, 6]);
  });
});
