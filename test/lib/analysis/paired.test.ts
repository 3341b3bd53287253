import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';
import {
  discordant,
  holm,
  mcnemarExact,
  pairedBootstrapAuc,
  pairedBootstrapDelta,
  tieGroups,
} from '../../../src/lib/analysis/paired.ts';

describe('discordant pairs', () => {
  it('counts A-only and B-only hits', () => {
    expect(discordant([1, 1, 0, 0, 1], [1, 0, 1, 0, 0])).toEqual({ b: 2, c: 1 });
  });
  it('rejects vectors of different lengths', () => {
    expect(() => discordant([1], [1, 0])).toThrow(/differ in length: 1 vs 2/);
  });
});

describe('exact McNemar', () => {
  it('matches hand-worked binomial tails', () => {
    // n = 10, min 1: 2 · (1 + 10) / 1024.
    expect(mcnemarExact(1, 9)).toBe((2 * 11) / 1024);
    expect(mcnemarExact(9, 1)).toBe((2 * 11) / 1024);
    // n = 5, min 0: 2 / 32.
    expect(mcnemarExact(0, 5)).toBe(1 / 16);
    // n = 7, min 3: 2 · (1 + 7 + 21 + 35) / 128 = 1.
    expect(mcnemarExact(3, 4)).toBe(1);
  });
  it('is 1 without discordant queries or when b = c', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(6, 6)).toBe(1);
  });
  it('stays finite and exact far past 2^1024', () => {
    // n = 3000, min 0: 2^-2999 underflows; min 1400: a p well inside (0, 1).
    expect(mcnemarExact(0, 3000)).toBe(0);
    const p = mcnemarExact(1400, 1600);
    expect(p).toBeGreaterThan(1e-4);
    expect(p).toBeLessThan(1e-2);
    // n = 1100, min 0: 2^-1099 is subnormal, not 0.
    expect(mcnemarExact(0, 1100)).toBe(2 ** -1099);
  });
  it('rejects counts that are not counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(/b must be a count/);
    expect(() => mcnemarExact(1, 2.5)).toThrow(/c must be a count/);
  });
});

describe('paired bootstrap of a difference', () => {
  it('is the bootstrap of per-query differences, seeded', () => {
    const random = seededRandom(7);
    const a = Array.from({ length: 200 }, (): number => (random() < 0.6 ? 1 : 0));
    const b = a.map((x, i) => (i % 10 === 0 ? 1 - x : x));
    const one = pairedBootstrapDelta(a, b, { seed: 1 });
    expect(one).toEqual(pairedBootstrapDelta(a, b, { seed: 1 }));
    const delta = (a.reduce((s, x) => s + x, 0) - b.reduce((s, x) => s + x, 0)) / 200;
    expect(one?.delta).toBeCloseTo(delta, 12);
    expect(one?.interval.lo).toBeLessThanOrEqual(delta);
    expect(one?.interval.hi).toBeGreaterThanOrEqual(delta);
  });
  it('collapses to a point when the two agree on every query', () => {
    const a = [1, 0, 1, 1];
    expect(pairedBootstrapDelta(a, a)).toEqual({ delta: 0, interval: { lo: 0, hi: 0 } });
  });
  it('is null without queries and rejects unpaired input', () => {
    expect(pairedBootstrapDelta([], [])).toBeNull();
    expect(() => pairedBootstrapDelta([1], [])).toThrow(/differ in length/);
  });
});

describe('paired bootstrap of ΔAUC', () => {
  const groups = (shift: number, seed: number) => {
    const random = seededRandom(seed);
    return Array.from({ length: 60 }, () => ({
      targets: [random() + shift],
      background: Array.from({ length: 30 }, () => random()),
    }));
  };
  it('excludes 0 when one retriever separates far better, and is seeded', () => {
    const strong = groups(0.8, 1);
    const weak = groups(0.05, 2);
    const ci = pairedBootstrapAuc(strong, weak, { seed: 3 });
    expect(ci?.lo).toBeGreaterThan(0);
    expect(ci).toEqual(pairedBootstrapAuc(strong, weak, { seed: 3 }));
  });
  it('is exactly 0 for a retriever against itself', () => {
    const g = groups(0.3, 5);
    expect(pairedBootstrapAuc(g, g)).toEqual({ lo: 0, hi: 0 });
  });
  it('is null without scores', () => {
    expect(pairedBootstrapAuc([], [])).toBeNull();
  });
});

describe('Holm', () => {
  it('multiplies the i-th smallest by m − i and keeps the order monotone', () => {
    // sorted .01, .02, .04 → .03, .04, .04 (the last lifted to the running max).
    expect(holm([0.04, 0.01, 0.02])).toEqual([0.04, 0.03, 0.04]);
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
  it('rejects what is not a p-value', () => {
    expect(() => holm([0.1, Number.NaN])).toThrow(/in \[0, 1\]/);
  });
});

describe('tie groups', () => {
  const fromMatrix = (m: number[][]) => (i: number, j: number) => m[Math.min(i, j)][Math.max(i, j)];
  it('finds maximal runs in which no pair is separable', () => {
    // 0~1, 1~2, but 0 vs 2 separable: two overlapping groups; 3 alone.
    const p = fromMatrix([
      [1, 0.3, 0.01, 0.001],
      [0, 1, 0.2, 0.001],
      [0, 0, 1, 0.01],
      [0, 0, 0, 1],
    ]);
    expect(tieGroups(4, p)).toEqual([
      [0, 1],
      [1, 2],
      [3, 3],
    ]);
  });
  it('puts everyone in one group when nothing is separable, and each alone when all are', () => {
    expect(tieGroups(3, () => 0.5)).toEqual([[0, 2]]);
    expect(tieGroups(3, () => 0.001)).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });
  it('takes the level as given', () => {
    expect(tieGroups(2, () => 0.03, 0.01)).toEqual([[0, 1]]);
  });
});
