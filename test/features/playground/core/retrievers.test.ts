import { describe, expect, it } from 'vitest';
import { getModelSpec, type ModelDtype } from '../../../../src/lib/embed/model-registry.ts';
import {
  bm25Option,
  modelOption,
  offeredOptions,
  playgroundDtype,
  walkModel,
} from '../../../../src/features/playground/core/retrievers.ts';
import { pageDtype } from '../../../../src/lib/embed/site-models.ts';

describe('playgroundDtype', () => {
  it("takes the other pages' dtype (fp32 where served), so their vectors are shared", () => {
    const spec = getModelSpec('minilm');
    const has = (dtypes: ModelDtype[]) => new Map([[spec.id, { spec, dtypes }]]);
    expect(playgroundDtype(has(['fp32', 'q8']), spec)).toBe('fp32');
    expect(playgroundDtype(has(['fp32', 'q8']), spec)).toBe(
      pageDtype(has(['fp32', 'q8']), spec.id),
    );
    expect(playgroundDtype(has(['q8']), spec)).toBe('q8');
    expect(playgroundDtype(has([]), spec)).toBeNull();
  });
});

describe('walkModel', () => {
  it('walks with a real model where served, else with none', () => {
    const minilm = getModelSpec('minilm');
    expect(walkModel([bm25Option(), modelOption(minilm, 'q8')])).toBe('minilm');
    expect(walkModel([bm25Option(), modelOption(minilm, null)])).toBeNull();
  });
});

describe('offeredOptions', () => {
  it('offers the test model only when the teacher added it', () => {
    const all = [
      bm25Option(),
      modelOption(getModelSpec('tiny-bert'), 'fp32'),
      modelOption(getModelSpec('minilm'), 'fp32'),
    ];
    expect(offeredOptions(all, false).map((o) => o.id)).toEqual(['bm25', 'minilm']);
    expect(offeredOptions(all, true).map((o) => o.id)).toEqual(['bm25', 'tiny-bert', 'minilm']);
  });
});
