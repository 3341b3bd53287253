import { describe, expect, it } from 'vitest';
import { ProgressMeter, etaSeconds, textsPerSecond } from '../../../src/lib/embed/progress.ts';

describe('progress maths', () => {
  it('computes texts per second from milliseconds', () => {
    expect(textsPerSecond(64, 2000)).toBe(32);
    expect(textsPerSecond(10, 0)).toBe(0);
    expect(textsPerSecond(0, 500)).toBe(0);
  });

  it('estimates the time left, unknown until there is a rate', () => {
    expect(etaSeconds(100, 25)).toBe(4);
    expect(etaSeconds(100, 0)).toBeNull();
    expect(etaSeconds(0, 0)).toBe(0);
    expect(etaSeconds(-3, 10)).toBe(0);
  });
});

describe('ProgressMeter', () => {
  function clock() {
    let now = 1000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  }

  it('counts cache hits as done at once, without a rate', () => {
    const t = clock();
    const meter = new ProgressMeter(486, 486, 0, t.now);
    expect(meter.snapshot()).toEqual({
      done: 486,
      total: 486,
      cached: 486,
      computed: 0,
      modelCalls: 0,
      textsPerSecond: 0,
      etaSeconds: 0,
    });
  });

  it('measures only the model: rate from computed texts, ETA from those left', () => {
    const t = clock();
    const meter = new ProgressMeter(100, 36, 60, t.now);
    expect(meter.snapshot().etaSeconds).toBeNull();
    t.advance(1000);
    const first = meter.commit(32, 34); // two duplicate rows share a computed text
    expect(first).toMatchObject({ done: 70, computed: 32, modelCalls: 1, textsPerSecond: 32 });
    expect(first.etaSeconds).toBeCloseTo(28 / 32, 10);
    t.advance(500);
    const last = meter.commit(28, 30);
    expect(last).toMatchObject({ done: 100, total: 100, computed: 60, modelCalls: 2 });
    expect(last.textsPerSecond).toBe(40);
    expect(last.etaSeconds).toBe(0);
  });
});
