import { describe, expect, it } from 'vitest';
import { BM25_ID } from '../../../src/lib/protocol-kit/bm25-retriever.ts';
import { RetrieverPool, retrieverChoices } from '../../../src/lib/protocol-kit/pool.ts';
import { FakeEmbedder, fakeHub } from '../embed/fake-embedders.ts';

describe('RetrieverPool', () => {
  it('offers BM25 and every registered model', () => {
    const ids = retrieverChoices().map((c) => c.id);
    expect(ids[0]).toBe(BM25_ID);
    expect(ids).toContain('minilm');
  });

  it('hands out dense retrievers over the hub’s embedder and its kept vectors', async () => {
    const { hub, made } = fakeHub();
    const pool = new RetrieverPool(hub, { device: 'wasm' });
    const a = await pool.retriever('tiny-bert');
    const b = await pool.retriever('tiny-bert', false);
    expect([a.id, b.id]).toEqual(['tiny-bert', 'tiny-bert']);
    expect(made).toHaveLength(1);
    expect(made[0].request).toEqual({ modelId: 'tiny-bert', device: 'wasm' });
    expect(pool.vectors('tiny-bert')).toBe(hub.vectors({ modelId: 'tiny-bert', device: 'wasm' }));
    expect((await pool.retriever(BM25_ID)).id).toBe(BM25_ID);
    // A hub given is the app's: the pool leaves its embedders alone.
    await pool.dispose();
    expect(made[0].embedder.disposed).toBe(false);
  });

  it('owns and disposes the hub it makes from a factory (the CLI)', async () => {
    const made: FakeEmbedder[] = [];
    const pool = new RetrieverPool(async (id) => {
      const e = new FakeEmbedder(id);
      made.push(e);
      return e;
    });
    await pool.embedder('tiny-bert');
    await pool.embedder('tiny-bert');
    expect(made).toHaveLength(1);
    await pool.dispose();
    expect(made[0].disposed).toBe(true);
  });

  it('says to choose BM25 where nothing can embed', async () => {
    const pool = new RetrieverPool(null);
    expect(pool.canEmbed).toBe(false);
    await expect(pool.retriever('minilm')).rejects.toThrow(
      'no embedder available for "minilm" here: choose BM25',
    );
  });
});
