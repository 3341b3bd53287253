import { describe, expect, it } from 'vitest';
import {
  RUN_VIEW_RESET,
  readReproduceParams,
  runControlChange,
} from '../../../src/lib/protocols/params.ts';

describe('runControlChange', () => {
  it("clears the old run's brush, picked memory, drill-down and series on any run control", () => {
    for (const key of ['bench', 'ret', 'mode', 'target', 'bg', 'prefix', 'device']) {
      const change = runControlChange(key, 'x');
      expect(change, key).toMatchObject({
        brush: null,
        bseries: null,
        mem: null,
        q: null,
        series: null,
      });
      expect(change[key]).toBe('x');
    }
  });

  it('starts a new benchmark on its paper defaults, and keeps them on other changes', () => {
    expect(runControlChange('bench', 'locomo')).toEqual({
      ...RUN_VIEW_RESET,
      ret: null,
      target: null,
      prefix: null,
      mode: null,
      find: null,
      near: null,
      bench: 'locomo',
    });
    // The map's search and typed query stay for another model of the same memories.
    expect(runControlChange('ret', 'minilm')).toEqual({ ...RUN_VIEW_RESET, ret: 'minilm' });
  });

  it('leaves a view with no brush and no picked memory once applied', () => {
    const before = { bench: 'inmind', brush: '0.2,0.4', bseries: 'naive', mem: 'm:3', q: '112' };
    const after = { ...before, ...runControlChange('bench', 'locomo') };
    const kept = Object.fromEntries(
      Object.entries(after).filter((e): e is [string, string] => e[1] !== null),
    );
    expect(kept).toEqual({ bench: 'locomo' });
    expect(readReproduceParams(kept).spec.benchmark).toBe('locomo');
  });
});
