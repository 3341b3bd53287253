import { describe, expect, it } from 'vitest';
import { TEST_HOOKS } from '../../../src/lib/embed/test-hooks.ts';
import { installAutomation } from '../../../src/lib/embed/automation.ts';

describe('test hooks', () => {
  it('are off where no build defined them (Node, vitest)', () => {
    expect(TEST_HOOKS).toBe(false);
  });

  it('installAutomation does nothing when they are off', () => {
    const remove = installAutomation(() => null);
    expect('memlens' in globalThis).toBe(false);
    remove();
  });
});
