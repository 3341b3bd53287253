import { describe, expect, it } from 'vitest';
import { SliceClock, yieldToEventLoop } from '../../../src/lib/analysis/search-slices.ts';

describe('slice clock', () => {
  it('yields once a slice passes its budget, reports progress and the longest slice', async () => {
    let t = 0;
    const progress: number[] = [];
    let yields = 0;
    const clock = new SliceClock(
      {
        sliceMs: 10,
        now: () => (t += 3),
        yieldNow: async () => {
          yields++;
        },
        onProgress: (p) => progress.push(p.done / p.total),
      },
      100,
    );
    const paused: number[] = [];
    for (let done = 10; done <= 100; done += 10) {
      const pause = clock.check(done);
      if (pause) {
        paused.push(done);
        await pause;
      }
    }
    expect(paused.length).toBeGreaterThan(1);
    expect(yields).toBe(paused.length);
    const stats = clock.finish();
    expect(stats.slices).toBe(paused.length + 1);
    expect(stats.longestSliceMs).toBeGreaterThanOrEqual(10);
    expect(stats.longestSliceMs).toBeLessThanOrEqual(12);
    expect(progress.at(-1)).toBe(1);
  });

  it('throws the abort reason at the next yield', async () => {
    const controller = new AbortController();
    let t = 0;
    const clock = new SliceClock(
      { sliceMs: 1, now: () => (t += 2), yieldNow: yieldToEventLoop, signal: controller.signal },
      1,
    );
    controller.abort(new Error('cancelled here'));
    await expect(clock.check(0)).rejects.toThrow('cancelled here');
  });
});
