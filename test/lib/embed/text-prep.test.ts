import { describe, expect, it } from 'vitest';
import { prepareTexts } from '../../../src/lib/embed/text-prep.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';

describe('prepareTexts', () => {
  it("adds the model's prefix for the kind of text", () => {
    const spec = { queryPrefix: 'query: ', documentPrefix: 'passage: ' };
    expect(prepareTexts(spec, ['a', 'b'], 'query')).toEqual(['query: a', 'query: b']);
    expect(prepareTexts(spec, ['a'], 'document')).toEqual(['passage: a']);
  });

  it('leaves MiniLM texts as they are and prefixes only BGE queries', () => {
    const minilm = getModelSpec('minilm');
    expect(prepareTexts(minilm, ['x'], 'query')).toEqual(['x']);
    const bge = getModelSpec('bge-small');
    expect(prepareTexts(bge, ['x'], 'document')).toEqual(['x']);
    expect(prepareTexts(bge, ['x'], 'query')[0]).not.toBe('x');
  });
});
