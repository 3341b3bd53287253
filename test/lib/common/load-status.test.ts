import { describe, expect, it } from 'vitest';
import { progressOf, type LoadStep } from '../../../src/lib/common/load-status.ts';

const step = (state: LoadStep['state']): LoadStep => ({
  id: state,
  label: state,
  state,
  detail: '',
});

describe('progressOf', () => {
  it('counts finished steps, failed ones included, and is whole with no steps', () => {
    expect(progressOf([])).toBe(1);
    expect(progressOf([step('pending'), step('running')])).toBe(0);
    expect(progressOf([step('done'), step('error'), step('running'), step('pending')])).toBe(0.5);
  });

  it('leaves a deferred step out: nothing waits for it until it is asked for', () => {
    expect(progressOf([step('done'), step('deferred')])).toBe(1);
    expect(progressOf([step('deferred')])).toBe(1);
    expect(progressOf([step('done'), step('running'), step('deferred')])).toBe(0.5);
  });
});
