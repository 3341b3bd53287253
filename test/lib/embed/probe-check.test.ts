import { describe, expect, it } from 'vitest';
import {
  formatCosine,
  perturbVectors,
  probePassed,
  ProbeRefused,
  probeSummary,
  worstCosine,
  type ProbeVerdict,
} from '../../../src/lib/embed/probe-check.ts';

const verdict = (worstCosine: number): ProbeVerdict => ({
  texts: 24,
  worstCosine,
  threshold: 0.9999,
  reference: 'sentence-transformers 6.2.0',
});

describe('the backend probe', () => {
  it('finds the worst per-text cosine, scale aside', () => {
    const ref = Float32Array.from([1, 0, 0, 1]);
    expect(worstCosine(Float32Array.from([2, 0, 0, 3]), ref, 2)).toBeCloseTo(1, 12);
    expect(worstCosine(Float32Array.from([1, 0, 1, 1]), ref, 2)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(worstCosine(Float32Array.from([1, 0, -1, 0]), ref, 2)).toBeCloseTo(0, 12);
  });

  it('counts a non-finite or zero vector as the worst there is', () => {
    const ref = Float32Array.from([1, 0, 0, 1]);
    expect(worstCosine(Float32Array.from([1, 0, Number.NaN, 1]), ref, 2)).toBe(-1);
    expect(worstCosine(Float32Array.from([1, 0, 0, 0]), ref, 2)).toBe(-1);
  });

  it('refuses a reference of another shape', () => {
    expect(() => worstCosine(new Float32Array(4), new Float32Array(6), 2)).toThrow(/4 values/);
  });

  it('passes at the threshold and below it refuses, naming the worst cosine', () => {
    expect(probePassed(verdict(0.9999))).toBe(true);
    expect(probePassed(verdict(0.99989))).toBe(false);
    expect(new ProbeRefused(verdict(0.01234)).message).toBe(
      'its vectors disagree with the reference: worst cosine 0.01234 < 0.9999 over 24 probe texts (vs sentence-transformers 6.2.0)',
    );
  });

  it('shows cosines near 1 by their distance from it', () => {
    expect(formatCosine(0.99999999)).toBe('1 − 1.0e-8');
    expect(formatCosine(1)).toBe('1');
    expect(formatCosine(0.5)).toBe('0.50000');
    expect(probeSummary(verdict(1))).toBe(
      'probe: 24 texts, worst cosine 1 ≥ 0.9999 vs sentence-transformers 6.2.0',
    );
  });

  it('perturbs each vector into a finite, equally long, wrong one', () => {
    const v = Float32Array.from([0.6, 0.8, 0, 0, 0, 1, 0, 0]);
    const moved = perturbVectors(v, 4);
    expect([...moved]).toEqual([0, 0.6, 0.8, 0, 0, 0, 1, 0].map((x) => Math.fround(x)));
    expect(worstCosine(moved, v, 4)).toBeLessThan(0.5);
  });
});
