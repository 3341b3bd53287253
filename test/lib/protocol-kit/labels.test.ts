import { describe, expect, it } from 'vitest';
import { scoreTitle } from '../../../src/lib/protocol-kit/labels.ts';
import { BM25_ID } from '../../../src/lib/protocol-kit/pool.ts';

describe('scoreTitle', () => {
  it('names the score each retriever gives', () => {
    expect(scoreTitle(BM25_ID)).toBe('BM25 score');
    expect(scoreTitle('minilm')).toBe('cosine(query, memory)');
  });
});
