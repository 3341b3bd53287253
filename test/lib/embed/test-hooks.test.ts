import { describe, expect, it } from 'vitest';
import { TEST_HOOKS } from '../../../src/lib/embed/test-hooks.ts';
import { installAutomation } from '../../../src/lib/embed/automation.ts';
import { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';

describe('test hooks', () => {
  it('are off where no build defined them (Node, vitest)', () => {
    expect(TEST_HOOKS).toBe(false);
  });

  it('installAutomation does nothing when they are off', () => {
    const hub = new EmbedderHub({
      create: () => {
        throw new Error('no embedder is made while the hooks are off');
      },
      openStore: null,
    });
    const remove = installAutomation(() => null, hub);
    expect('memlens' in globalThis).toBe(false);
    remove();
  });
});
