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

  it('reads a model the reader brings, its dtype apart, and writes it back as given', () => {
    const commit = 'a'.repeat(40);
    expect(parseCompareRef(`hub:me/my-model@${commit}:q8`)).toEqual({
      id: `hub:me/my-model@${commit}`,
      dtype: 'q8',
      brought: { kind: 'hub', repo: 'me/my-model', revision: commit, dtype: 'q8' },
    });
    expect(parseCompareRef('pack:out/a.parquet')).toMatchObject({
      id: 'pack:out/a.parquet',
      dtype: null,
    });
    for (const text of ['onnx:./my-model', 'onnx:/m:fp16', `hub:a/b@${commit}`, 'pack:x.parquet']) {
      expect(formatCompareRef(parseCompareRef(text))).toBe(text);
    }
    expect(() => parseCompareRef('hub:me/my-model@main')).toThrow(/branch or tag, not a commit/);
  });
});
