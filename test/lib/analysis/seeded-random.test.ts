import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

describe('seededRandom (mulberry32)', () => {
  it('repeats its stream for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(seededRandom(42)());
  });
});
