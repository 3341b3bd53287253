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
});
