import { describe, expect, it } from 'vitest';
import {
  caseParams,
  effectiveTexts,
  joinMemories,
  readState,
  splitMemories,
} from '../../../../src/features/playground/core/state.ts';
import type { PlaygroundCase } from '../../../../src/features/playground/core/cases.ts';

const RETRIEVERS = ['bm25', 'tiny-bert', 'minilm'];
const demo: PlaygroundCase = {
  id: 'tree-nut',
  label: 'x',
  citation: 'InMind task 155',
  memories: ['allergy', 'reply'],
  queries: [
    { variant: 'indirect', label: 'i', text: 'macarons?' },
    { variant: 'naive', label: 'n', text: 'which allergy?' },
  ],
};

describe('playground URL state', () => {
  it('defaults to the tree-nut case, its indirect query and BM25', () => {
    const s = readState({}, RETRIEVERS, 5);
    expect(s).toEqual({
      caseId: 'tree-nut',
      memories: null,
      query: null,
      variant: '',
      retriever: 'bm25',
      step: null,
      testModel: false,
    });
    expect(effectiveTexts(s, demo)).toEqual({
      memories: ['allergy', 'reply'],
      query: 'macarons?',
      edited: false,
    });
  });

  it('reads every selection back from the parameters', () => {
    const s = readState(
      { case: 'i-485', mem: 'a\n\n b ', q: 'trip?', qv: 'naive', r: 'minilm', step: '3' },
      RETRIEVERS,
      5,
    );
    expect(s).toEqual({
      caseId: 'i-485',
      memories: ['a', 'b'],
      query: 'trip?',
      variant: 'naive',
      retriever: 'minilm',
      step: 3,
      testModel: false,
    });
    expect(effectiveTexts(s, demo)).toEqual({ memories: ['a', 'b'], query: 'trip?', edited: true });
  });

  it('offers the test model only when the teacher added it (tiny=on)', () => {
    expect(readState({ r: 'tiny-bert' }, RETRIEVERS, 5).retriever).toBe('bm25');
    const added = readState({ r: 'tiny-bert', tiny: 'on' }, RETRIEVERS, 5);
    expect([added.retriever, added.testModel]).toEqual(['tiny-bert', true]);
  });

  it('falls back on unknown values rather than failing', () => {
    const s = readState({ case: 'nope', r: 'gpt', step: '9' }, RETRIEVERS, 5);
    expect([s.caseId, s.retriever, s.step]).toEqual(['tree-nut', 'bm25', null]);
    expect(readState({ step: '0' }, RETRIEVERS, 5).step).toBeNull();
    expect(readState({ case: 'custom' }, RETRIEVERS, 5).caseId).toBe('custom');
    expect(effectiveTexts(readState({ case: 'custom' }, RETRIEVERS, 5), null)).toEqual({
      memories: [],
      query: '',
      edited: false,
    });
  });

  it('uses the chosen query variant', () => {
    expect(effectiveTexts(readState({ qv: 'naive' }, RETRIEVERS, 5), demo).query).toBe(
      'which allergy?',
    );
  });

  it('keeps memories one per line and starts a picked case from its own texts', () => {
    expect(splitMemories(joinMemories(['x', 'y z']))).toEqual(['x', 'y z']);
    expect(caseParams('cat')).toEqual({ case: 'cat', mem: null, q: null, qv: null });
    expect(caseParams('tree-nut').case).toBeNull();
  });
});
