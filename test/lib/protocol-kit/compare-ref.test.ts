import { describe, expect, it } from 'vitest';
import { formatCompareRef, parseCompareRef } from '../../../src/lib/protocol-kit/compare-ref.ts';

describe('retriever references', () => {
  it('reads ID and ID:DTYPE and writes them back', () => {
    expect(parseCompareRef('bm25')).toEqual({ id: 'bm25', dtype: null });
    expect(parseCompareRef(' minilm:q8 ')).toEqual({ id: 'minilm', dtype: 'q8' });
    for (const text of ['bm25', 'minilm', 'minilm:fp32']) {
      expect(formatCompareRef(parseCompareRef(text))).toBe(text);
    }
  });

  it('names the text and what was expected', () => {
    expect(() => parseCompareRef('minilm:int3')).toThrow(
      'retriever "minilm:int3": dtype must be one of fp32, fp16, q8, q4',
    );
    expect(() => parseCompareRef('')).toThrow(/expected ID or ID:DTYPE/);
    expect(() => parseCompareRef('a:q8:x')).toThrow(/expected ID or ID:DTYPE/);
  });
});
