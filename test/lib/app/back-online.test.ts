import { describe, expect, it } from 'vitest';
import { whenBackOnline } from '../../../src/lib/app/back-online.ts';

describe('whenBackOnline', () => {
  it('calls back on each "online" event until stopped', () => {
    const target = new EventTarget();
    let calls = 0;
    const stop = whenBackOnline(() => calls++, target);
    target.dispatchEvent(new Event('offline'));
    target.dispatchEvent(new Event('online'));
    target.dispatchEvent(new Event('online'));
    stop();
    target.dispatchEvent(new Event('online'));
    expect(calls).toBe(2);
  });
});
