import { describe, expect, it } from 'vitest';
import {
  matchesFloat32,
  prepareScalePoint,
  searchScalePoint,
} from '../../scripts/lib/scale-run.ts';

describe('one cost-curve point', () => {
  it('runs the int16 screen on auto, equals the float32 search, and notices a change', async () => {
    const prep = prepareScalePoint({ count: 900, dim: 32, queries: 12, k: 5, kernel: 'auto' });
    const { point, result } = await searchScalePoint(prep);
    expect(point.ran).toBe('int16');
    expect(point.rescoredPerQuery).toBeGreaterThanOrEqual(5);
    expect(point.recallAtK).toBeGreaterThanOrEqual(point.recallAt1);
    expect(await matchesFloat32(prep, result)).toBe(true);
    result.targetRanks[3] += 1;
    expect(await matchesFloat32(prep, result)).toBe(false);
    const simd = await searchScalePoint({ ...prep, params: { ...prep.params, kernel: 'simd' } });
    expect(simd.point.ran).toBe('simd');
    expect(simd.point.rescoredPerQuery).toBeNull();
  });
});
