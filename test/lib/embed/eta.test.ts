import { describe, expect, it } from 'vitest';
import { describeEta, EtaClock } from '../../../src/lib/embed/eta.ts';

describe('EtaClock', () => {
  it('estimates from the texts embedded since its first report, cached ones excluded', () => {
    let now = 0;
    const clock = new EtaClock(() => now);
    expect(clock.update({ done: 100, total: 1100, cached: 100 })).toBeNull();
    now = 2000;
    const eta = clock.update({ done: 200, total: 1100, cached: 100 });
    expect(eta).toEqual({ textsPerSecond: 50, secondsLeft: 18 });
  });

  it('gives no estimate before half a second or a finished batch', () => {
    let now = 0;
    const clock = new EtaClock(() => now);
    clock.update({ done: 0, total: 10, cached: 0 });
    now = 400;
    expect(clock.update({ done: 5, total: 10, cached: 0 })).toBeNull();
    now = 900;
    expect(clock.update({ done: 0, total: 10, cached: 0 })).toBeNull();
  });
});

describe('describeEta', () => {
  it('says minutes and seconds left and the rate', () => {
    expect(describeEta({ textsPerSecond: 31.2, secondsLeft: 229.1 })).toBe(
      'about 3 min 50 s left at 31 texts/s',
    );
    expect(describeEta({ textsPerSecond: 2.25, secondsLeft: 4 })).toBe(
      'about 4 s left at 2.3 texts/s',
    );
  });
});
