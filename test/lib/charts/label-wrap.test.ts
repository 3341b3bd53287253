import { describe, expect, it } from 'vitest';
import { shortLabel, wrapLines, wrappedLabelExpr } from '../../../src/lib/charts/label-wrap.ts';

describe('axis labels shortened and wrapped', () => {
  it('leaves out a trailing citation and shortens the long embedding name', () => {
    expect(shortLabel('BM25 (Robertson and Zaragoza, 2009)')).toBe('BM25');
    expect(shortLabel('Dense (emb3-large) (OpenAI, 2024a)')).toBe('Dense (emb3-large)');
    expect(shortLabel('xMemory (text-embedding-3-large)')).toBe('xMemory (emb3-large)');
    expect(shortLabel('Backbone (GPT-5-mini)')).toBe('Backbone (GPT-5-mini)');
    expect(shortLabel('(2020)')).toBe('(2020)');
  });

  it('breaks at spaces, a long word on a line of its own', () => {
    expect(wrapLines('Best retrieval configuration', 14)).toEqual([
      'Best retrieval',
      'configuration',
    ]);
    expect(wrapLines('HippoRAG 2 (emb3-large)', 12)).toEqual(['HippoRAG 2', '(emb3-large)']);
    expect(wrapLines('a verylongwordindeed b', 5)).toEqual(['a', 'verylongwordindeed', 'b']);
    expect(wrapLines('BM25', 5)).toEqual(['BM25']);
  });

  it('maps only the labels it changes, by their full text', () => {
    expect(wrappedLabelExpr(['BM25', 'Naive'], 12)).toBe('datum.label');
    const expr = wrappedLabelExpr(['BM25', 'Mem0 (text-embedding-3-large)'], 12);
    expect(expr).toBe(
      '{"Mem0 (text-embedding-3-large)":["Mem0","(emb3-large)"]}[datum.label] || datum.label',
    );
  });
});
