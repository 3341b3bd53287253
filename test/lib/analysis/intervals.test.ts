import { describe, expect, it } from 'vitest';
import {
  binnedAucKs,
  bootstrapMean,
  bootstrapMeanCurve,
  bootstrapSeparation,
  bootstrapStepCurve,
  percentile,
  seededRandom,
  wilson,
} from '../../../src/lib/analysis/intervals.ts';

describe('Wilson interval', () => {
  it('matches hand-worked values', () => {
    // 67/125: p = .536, z²/n = .030732, centre = (.536 + .015366) / 1.030732 = .534927,
    // half = 1.96 · √(.0019896 + .0000615) / 1.030732 = .086118 → [.4488, .6210].
    const a = wilson(67, 125);
    expect(a?.lo).toBeCloseTo(0.448808, 5);
    expect(a?.hi).toBeCloseTo(0.621045, 5);
    // 0/10: centre = half = (z²/20) / (1 + z²/10) = .19207 / 1.38415 = .138766 → [0, .27753].
    const zero = wilson(0, 10);
    expect(zero?.lo).toBe(0);
    expect(zero?.hi).toBeCloseTo(0.277533, 5);
    // Symmetric around ½ at 5/10, mirrored at 10/10.
    const half = wilson(5, 10);
    expect((half?.lo ?? 0) + (half?.hi ?? 0)).toBeCloseTo(1, 12);
    expect(wilson(10, 10)?.lo).toBeCloseTo(1 - 0.277533, 5);
    expect(wilson(1, 125)?.hi).toBeCloseTo(0.043925, 5);
  });

  it('is null without trials and rejects impossible counts', () => {
    expect(wilson(0, 0)).toBeNull();
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(1, 2.5)).toThrow(RangeError);
  });
});

describe('percentile (type 7)', () => {
  it('interpolates between order statistics', () => {
    const v = [1, 2, 3, 4, 5];
    expect(percentile(v, 0)).toBe(1);
    expect(percentile(v, 0.25)).toBe(2);
    expect(percentile(v, 0.1)).toBeCloseTo(1.4, 12);
    expect(percentile(v, 1)).toBe(5);
  });
});

describe('bootstrap of the mean', () => {
  it('is a point for constant values and spans [0, 1] for two values 0 and 1', () => {
    expect(bootstrapMean([0.5, 0.5, 0.5])).toEqual({ lo: 0.5, hi: 0.5 });
    // n = 2: resampled means are 0, ½, 1 with probabilities ¼, ½, ¼, so 2.5% and 97.5% of
    // 1000 draws sit on 0 and 1.
    expect(bootstrapMean([0, 1])).toEqual({ lo: 0, hi: 1 });
    expect(bootstrapMean([])).toBeNull();
  });

  it('is seeded: the same values give the same interval', () => {
    const values = Array.from({ length: 50 }, (_, i) => (i % 7) / 6);
    expect(bootstrapMean(values)).toEqual(bootstrapMean(values));
    expect(bootstrapMean(values, { seed: 2 })).not.toEqual(bootstrapMean(values));
  });

  it('agrees with the normal approximation on 67 hits of 125', () => {
    // Standard error √(.536 · .464 / 125) = .04461 → ±.0874 around .536.
    const values = Array.from({ length: 125 }, (_, i) => (i < 67 ? 1 : 0));
    const ci = bootstrapMean(values);
    expect(ci?.lo).toBeGreaterThan(0.536 - 0.0874 - 0.012);
    expect(ci?.lo).toBeLessThan(0.536 - 0.0874 + 0.012);
    expect(ci?.hi).toBeGreaterThan(0.536 + 0.0874 - 0.012);
    expect(ci?.hi).toBeLessThan(0.536 + 0.0874 + 0.012);
  });

  it('draws uniform numbers in [0, 1)', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 10_000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(draws.reduce((s, x) => s + x, 0) / draws.length).toBeCloseTo(0.5, 1);
  });
});

describe('bootstrap of a mean curve', () => {
  it('resamples whole queries, so each position equals the scalar bootstrap', () => {
    const rows = [0, 1, 1, 0, 1].map((x) => Float64Array.from([x, 1, 0.5 * x]));
    const band = bootstrapMeanCurve(rows);
    const first = bootstrapMean([0, 1, 1, 0, 1]);
    expect(band?.lo[0]).toBeCloseTo(first?.lo ?? NaN, 12);
    expect(band?.hi[0]).toBeCloseTo(first?.hi ?? NaN, 12);
    expect([band?.lo[1], band?.hi[1]]).toEqual([1, 1]);
    expect(band?.hi[2]).toBeCloseTo((first?.hi ?? NaN) / 2, 12);
  });
});

describe('bootstrap of a step curve', () => {
  it('equals the dense curve bootstrap on the same draws', () => {
    // Query i has gold ranks: recall@k rises by 1/|gold| at each rank.
    const golds = [[1], [3, null], [2, 5], [null], [4]];
    const width = 6;
    const steps = golds.map((g) =>
      g.flatMap((r) => (r === null ? [] : [[r - 1, 1 / g.length] as const])),
    );
    const dense = golds.map((g) =>
      Float64Array.from({ length: width }, (_, k) =>
        g.reduce((s: number, r) => s + (r !== null && r <= k + 1 ? 1 / g.length : 0), 0),
      ),
    );
    const a = bootstrapStepCurve(steps, width);
    const b = bootstrapMeanCurve(dense);
    for (let k = 0; k < width; k++) {
      expect(a?.lo[k]).toBeCloseTo(b?.lo[k] ?? NaN, 12);
      expect(a?.hi[k]).toBeCloseTo(b?.hi[k] ?? NaN, 12);
    }
  });
});

describe('AUC and KS bootstrap over queries', () => {
  it('computes binned AUC and KS by hand', () => {
    // Targets in bins 2, 3; background in bins 0, 1, 2. U = 1·(2 + ½) + 1·3 = 5.5 of 2·3 pairs;
    // CDF gaps after each bin: ⅓, ⅔, ½, 0.
    const r = binnedAucKs(Float64Array.from([0, 0, 1, 1]), Float64Array.from([1, 1, 1, 0]));
    expect(r?.auc).toBeCloseTo(5.5 / 6, 12);
    expect(r?.ks).toBeCloseTo(2 / 3, 12);
    expect(binnedAucKs(new Float64Array(2), Float64Array.from([1, 0]))).toBeNull();
  });

  it('is [1, 1] when every target beats every background score', () => {
    const groups = Array.from({ length: 6 }, (_, i) => ({
      targets: [0.9 + i / 100],
      background: [0.1, 0.2 + i / 100],
    }));
    expect(bootstrapSeparation(groups)).toEqual({ auc: { lo: 1, hi: 1 }, ks: { lo: 1, hi: 1 } });
  });

  it('contains the AUC of interleaved scores', () => {
    const groups = Array.from({ length: 40 }, (_, i) => ({
      targets: [(i % 10) / 10 + 0.05],
      background: [((i + 3) % 10) / 10, ((i + 7) % 10) / 10],
    }));
    const ci = bootstrapSeparation(groups);
    expect(ci?.auc.lo).toBeLessThan(0.55);
    expect(ci?.auc.hi).toBeGreaterThan(0.55);
    expect(bootstrapSeparation([])).toBeNull();
  });
});

describe('bootstrapMean draws', () => {
  it('the resamples of seededRandom(seed), value for value', () => {
    const random = seededRandom(3);
    const values = Array.from({ length: 97 }, () => Math.round(random() * 10) / 10);
    const draw = seededRandom(11);
    const means = Array.from({ length: 50 }, () => {
      let sum = 0;
      for (let i = 0; i < values.length; i++) sum += values[Math.floor(draw() * values.length)];
      return sum / values.length;
    }).sort((a, b) => a - b);
    const at = (q: number) => {
      const pos = q * (means.length - 1);
      const i = Math.floor(pos);
      return means[i] + (pos - i) * (means[Math.min(i + 1, means.length - 1)] - means[i]);
    };
    expect(bootstrapMean(values, { reps: 50, seed: 11 })).toEqual({ lo: at(0.025), hi: at(0.975) });
  });
});
