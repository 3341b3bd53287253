import { describe, expect, it } from 'vitest';
import { walkSteps } from '../../../src/lib/playground/walk.ts';
import { readState } from '../../../src/lib/playground/state.ts';
import { bm25Option, modelOption, walkModel } from '../../../src/lib/playground/retrievers.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';

describe('the guided walk', () => {
  it('has five steps whose parameters are all valid view states', () => {
    const steps = walkSteps('minilm');
    expect(steps).toHaveLength(5);
    const seen = steps.map((s) => {
      const params = Object.fromEntries(
        Object.entries(s.params).filter((e): e is [string, string] => e[1] !== null),
      );
      return readState(params, ['bm25', 'minilm'], 5);
    });
    expect(seen.map((s) => [s.caseId, s.variant, s.retriever])).toEqual([
      ['tree-nut', 'naive', 'bm25'],
      ['tree-nut', 'indirect', 'bm25'],
      ['tree-nut', 'indirect', 'minilm'],
      ['locomo-direct', '', 'bm25'],
      ['custom', '', 'bm25'],
    ]);
    for (const s of steps) expect(s.params).toMatchObject({ mem: null, q: null });
  });

  it('uses a real model where the site serves one, else tiny-bert', () => {
    const tiny = modelOption(getModelSpec('tiny-bert'), 'fp32');
    const minilmMissing = modelOption(getModelSpec('minilm'), null);
    expect(walkModel([bm25Option(), tiny, minilmMissing])).toBe('tiny-bert');
    const bge = modelOption(getModelSpec('bge-small'), 'q8');
    expect(walkModel([bm25Option(), tiny, bge])).toBe('bge-small');
    expect(walkModel([bm25Option()])).toBe('tiny-bert');
  });
});
