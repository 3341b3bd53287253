import { describe, expect, it } from 'vitest';
import {
  formatRetrieverRef,
  parseRetrieverRef,
} from '../../../src/lib/protocol-kit/retriever-ref.ts';

describe('retriever references', () => {
  it('reads ID and ID:DTYPE and writes them back', () => {
    expect(parseRetrieverRef('bm25')).toEqual({ id: 'bm25', dtype: null });
    expect(parseRetrieverRef(' minilm:q8 ')).toEqual({ id: 'minilm', dtype: 'q8' });
    for (const text of ['bm25', 'minilm', 'minilm:fp32']) {
      expect(formatRetrieverRef(parseRetrieverRef(text))).toBe(text);
    }
  });

  it('names the text and what was expected', () => {
    expect(() => parseRetrieverRef('minilm:int3')).toThrow(
      'retriever "minilm:int3": dtype must be one of fp32, fp16, q8, q4',
    );
    expect(() => parseRetrieverRef('')).toThrow(/expected ID or ID:DTYPE/);
    expect(() => parseRetrieverRef('a:q8:x')).toThrow(/expected ID or ID:DTYPE/);
  });
});
