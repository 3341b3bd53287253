import { describe, expect, it } from 'vitest';
import { rankMemories } from '../../../../src/features/playground/core/rank.ts';
import {
  rankCell,
  retrieverStatus,
  shortText,
} from '../../../../src/features/playground/core/rank-cells.ts';
import type { RetrieverResult } from '../../../../src/features/playground/core/session.ts';
import type { RetrieverOption } from '../../../../src/features/playground/core/retrievers.ts';

const minilm: RetrieverOption = { id: 'minilm', label: 'MiniLM', kind: 'dense', dtype: 'fp32' };
const bm25: RetrieverOption = { id: 'bm25', label: 'BM25', kind: 'bm25', dtype: null };
const result = (part: Partial<RetrieverResult>): RetrieverResult => ({
  status: 'done',
  ranking: null,
  progress: null,
  load: null,
  detail: '',
  backend: 'WASM',
  ...part,
});

describe('the Playground rank table', () => {
  it('cuts long texts with an ellipsis, leaves short ones', () => {
    expect(shortText('abc', 3)).toBe('abc');
    expect(shortText('abcd', 3)).toBe('ab…');
    expect(shortText('x'.repeat(200))).toHaveLength(90);
  });

  it("shows a memory's rank and score, or why there is none", () => {
    // Two background texts, then two memories scoring 0.9 and 0.1: ranks 1 and 4 of the four.
    const ranking = rankMemories([0.5, 0.2, 0.9, 0.1], 2);
    expect(rankCell(result({ ranking }), 0)).toBe('#1 · 0.900');
    expect(rankCell(result({ ranking }), 1)).toBe('#4 · 0.100');
    expect(rankCell(result({ status: 'error' }), 0)).toBe('failed');
    expect(rankCell(result({ status: 'cancelled' }), 0)).toBe('cancelled');
    expect(rankCell(result({ status: 'running' }), 0)).toBe('computing…');
    expect(rankCell(undefined, 0)).toBe('computing…');
  });

  it('says what a dense model is doing, and nothing for BM25 or a finished run', () => {
    expect(retrieverStatus(bm25, result({ status: 'error', detail: 'x' }))).toBe('');
    expect(retrieverStatus(minilm, undefined)).toBe('');
    expect(retrieverStatus(minilm, result({}))).toBe('');
    expect(retrieverStatus(minilm, result({ status: 'error', detail: 'no files' }))).toBe(
      'MiniLM: no files',
    );
    expect(retrieverStatus(minilm, result({ status: 'loading' }))).toBe(
      'MiniLM: loading the model…',
    );
    const load = { loaded: 1024, total: 0, file: 'model.onnx' };
    expect(retrieverStatus(minilm, result({ status: 'loading', load }))).toMatch(
      /^MiniLM: loading the model: .*model\.onnx/,
    );
    const progress = { done: 3, total: 8, cached: 0 };
    expect(retrieverStatus(minilm, result({ status: 'running', progress }))).toBe(
      'MiniLM: embedding 3 of 8 texts',
    );
    expect(
      retrieverStatus(minilm, result({ status: 'running', progress: { ...progress, total: 1 } })),
    ).toBe('');
  });
});
