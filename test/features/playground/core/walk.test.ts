import { describe, expect, it } from 'vitest';
import {
  standing,
  stepArrival,
  walkSteps,
  type WalkTable,
} from '../../../../src/features/playground/core/walk.ts';
import { readState } from '../../../../src/features/playground/core/state.ts';
import {
  bm25Option,
  modelOption,
  walkModel,
} from '../../../../src/features/playground/core/retrievers.ts';
import { getModelSpec } from '../../../../src/lib/embed/model-registry.ts';

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

  it('uses a real model where the site serves one, never the test model', () => {
    const tiny = modelOption(getModelSpec('tiny-bert'), 'fp32');
    const minilmMissing = modelOption(getModelSpec('minilm'), null);
    expect(walkModel([bm25Option(), tiny, minilmMissing])).toBeNull();
    const bge = modelOption(getModelSpec('bge-small'), 'q8');
    expect(walkModel([bm25Option(), tiny, bge])).toBe('bge-small');
    expect(walkModel([bm25Option()])).toBeNull();
  });

  it('without a real model, step 3 stays on BM25 and says why', () => {
    const step = walkSteps(null)[2];
    expect(step.params.r).toBe('bm25');
    expect(step.text(table([['BM25', 412]]))).toMatch(/serves no real embedding model/);
  });
});

function table(ranks: [string, number | null][], corpusSize = 488): WalkTable {
  return {
    corpusSize,
    backgroundSize: 486,
    ranks: ranks.map(([label, rank]) => ({ label, rank })),
  };
}

describe("the walk's words come from the rank table beside them", () => {
  it('never says every retriever is near the top when one is at #240', () => {
    const text = walkSteps('minilm')[3].text(
      table([
        ['BM25', 1],
        ['tiny-bert', 240],
      ]),
    );
    expect(text).not.toMatch(/every retriever/);
    expect(text).toContain(
      'BM25 puts the memory in the top 5 of 488 texts (BM25 #1), but tiny-bert does not (tiny-bert #240)',
    );
  });

  it('says every retriever only when every column is near the top', () => {
    expect(
      standing(
        table([
          ['BM25', 1],
          ['MiniLM', 3],
        ]),
      ),
    ).toBe(
      'every retriever shown (BM25 and MiniLM) puts the memory in the top 5 of 488 texts (BM25 #1, MiniLM #3)',
    );
    expect(standing(table([['BM25', 2]]))).toBe(
      'BM25 puts the memory in the top 5 of 488 texts (BM25 #2)',
    );
  });

  it('says when none is near the top, and which are still computing', () => {
    expect(standing(table([['BM25', 412]]))).toBe(
      'BM25 does not put the memory in the top 5 of 488 texts (BM25 #412)',
    );
    expect(
      standing(
        table([
          ['BM25', 412],
          ['MiniLM', 37],
          ['BGE', null],
        ]),
      ),
    ).toBe(
      'no retriever shown (BM25 and MiniLM) puts the memory in the top 5 of 488 texts (BM25 #412, MiniLM #37); 1 retriever still computing',
    );
    expect(standing(table([['MiniLM', null]]))).toBe('the ranks are still being computed');
  });

  it('counts with plural-safe nouns', () => {
    expect(standing(table([['BM25', 1]], 1))).toContain('of 1 text (');
    expect(walkSteps('minilm')[0].text({ ...table([]), backgroundSize: 1 })).toContain(
      'among 1 unrelated turn.',
    );
  });
});

describe('opening the walk on a step by its link', () => {
  const steps = walkSteps('minilm');

  it('brings a fresh page to the step’s case, query and retriever', () => {
    expect(stepArrival(steps, 4, { step: '4' })).toEqual({
      mem: null,
      q: null,
      case: 'locomo-direct',
      qv: null,
      r: 'bm25',
      step: '4',
    });
    expect(stepArrival(steps, 3, { step: '3' })).toMatchObject({ qv: 'indirect', r: 'minilm' });
  });

  it('leaves a URL that already shows the step alone, typed texts included', () => {
    expect(stepArrival(steps, 4, { step: '4', case: 'locomo-direct', r: 'bm25' })).toBeNull();
    expect(stepArrival(steps, 5, { step: '5', case: 'custom', r: 'bm25', mem: 'a\nb' })).toBeNull();
    expect(stepArrival(steps, 1, { step: '1', qv: 'naive', r: 'bm25' })).toBeNull();
  });

  it('does nothing for a step the walk does not have', () => {
    expect(stepArrival(steps, 9, { step: '9' })).toBeNull();
    expect(stepArrival(steps, 0, {})).toBeNull();
  });
});
