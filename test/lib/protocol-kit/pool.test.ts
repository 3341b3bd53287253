import { describe, expect, it } from 'vitest';
import { BM25_ID } from '../../../src/lib/protocol-kit/bm25-retriever.ts';
import {
  parseRetriever,
  RetrieverPool,
  retrieverChoices,
} from '../../../src/lib/protocol-kit/pool.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';
import { FakeEmbedder, fakeHub } from '../embed/fake-embedders.ts';

const tiny = parseModelRef('tiny-bert@wasm');

describe('RetrieverPool', () => {
  it('offers BM25 and every registered model', () => {
    const ids = retrieverChoices().map((c) => c.id);
    expect(ids[0]).toBe(BM25_ID);
    expect(ids).toContain('minilm');
  });

  it('hands out dense retrievers over the hub’s embedder and its kept vectors', async () => {
    const { hub, made } = fakeHub();
    const pool = new RetrieverPool(hub);
    const a = await pool.retriever(tiny);
    const b = await pool.retriever(tiny, false);
    expect([a.id, b.id]).toEqual(['tiny-bert', 'tiny-bert']);
    expect(made).toHaveLength(1);
    expect(made[0].request).toEqual({ model: tiny });
    expect(pool.vectors(tiny)).toBe(hub.vectors({ model: parseModelRef('tiny-bert@wasm') }));
    expect((await pool.retriever(BM25_ID)).id).toBe(BM25_ID);
    // A hub given is the app's: the pool leaves its embedders alone.
    await pool.dispose();
    expect(made[0].embedder.disposed).toBe(false);
  });

  it('owns and disposes the hub it makes from a factory (the CLI)', async () => {
    const made: FakeEmbedder[] = [];
    const pool = new RetrieverPool(async (model) => {
      const e = new FakeEmbedder(model.id);
      made.push(e);
      return e;
    });
    await pool.embedder(tiny);
    await pool.embedder(parseModelRef('tiny-bert@wasm'));
    expect(made).toHaveLength(1);
    await pool.dispose();
    expect(made[0].disposed).toBe(true);
  });

  it('parses a picked retriever: BM25 as such, a model into its reference, bad text named', () => {
    expect(parseRetriever('bm25')).toBe(BM25_ID);
    expect(parseRetriever('bge-small', { dtype: 'q8', backend: 'wasm' }, 'ret')).toEqual(
      parseModelRef('bge-small:q8@wasm'),
    );
    expect(() => parseRetriever('BM-25', {}, 'ret')).toThrow('ret: Unknown model "BM-25"');
  });

  it('says to choose BM25 where nothing can embed', async () => {
    const pool = new RetrieverPool(null);
    expect(pool.canEmbed).toBe(false);
    await expect(pool.retriever(parseModelRef('minilm'))).rejects.toThrow(
      'no embedder available for "minilm" here: choose BM25',
    );
  });
});
