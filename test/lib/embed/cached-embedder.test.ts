import { describe, expect, it } from 'vitest';
import { cachedEmbedder } from '../../../src/lib/embed/cached-embedder.ts';
import type { Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec, type ModelDtype } from '../../../src/lib/embed/model-registry.ts';
import { parseModelRef, type ModelRef } from '../../../src/lib/embed/model-ref.ts';
import type { VectorStore } from '../../../src/lib/embed/vector-cache.ts';

// A query prefix of its own, so query and document vectors of one text differ.
/** Not normalised, so the fake's rows [length, 1] pass the vector check. */
const spec = { ...getModelSpec('tiny-bert'), dims: 2, queryPrefix: 'q: ', normalize: false };
/** tiny-bert's reference over that variant (any dtype: the key is all that differs). */
const ref = (dtype: ModelDtype): ModelRef => ({ ...parseModelRef('tiny-bert'), spec, dtype });

/** Each text's vector is [its length, 1]; every call is recorded. */
function countingEmbedder(calls: string[][]): Embedder {
  return {
    spec,
    backend: 'node',
    async embed(texts) {
      calls.push([...texts]);
      return {
        dim: 2,
        count: texts.length,
        vectors: new Float32Array(texts.flatMap((t) => [t.length, 1])),
      };
    },
    dispose: async () => undefined,
  };
}

class MapStore implements VectorStore {
  readonly rows = new Map<string, Float32Array>();
  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.rows.get(k));
  }
  async putMany(entries: readonly { key: string; vector: Float32Array }[]) {
    for (const e of entries) this.rows.set(e.key, e.vector);
  }
}

describe('cachedEmbedder', () => {
  it('computes each distinct missing text once and returns rows in input order', async () => {
    const calls: string[][] = [];
    const store = new MapStore();
    const e = cachedEmbedder(countingEmbedder(calls), ref('fp32'), store);
    const m = await e.embed(['aa', 'b', 'aa'], { kind: 'document' });
    expect(calls).toEqual([['aa', 'b']]);
    expect([...m.vectors]).toEqual([2, 1, 1, 1, 2, 1]);
    expect(e.counts).toEqual({ cached: 1, computed: 2 });
  });

  it('serves a second run from the store, and keeps query and document vectors apart', async () => {
    const calls: string[][] = [];
    const store = new MapStore();
    const first = cachedEmbedder(countingEmbedder(calls), ref('fp32'), store);
    await first.embed(['aa', 'b'], { kind: 'document' });
    const second = cachedEmbedder(countingEmbedder(calls), ref('fp32'), store);
    const m = await second.embed(['b', 'aa'], { kind: 'document' });
    expect([...m.vectors]).toEqual([1, 1, 2, 1]);
    expect(second.counts).toEqual({ cached: 2, computed: 0 });
    await second.embed(['b'], { kind: 'query' });
    expect(calls).toEqual([['aa', 'b'], ['b']]);
  });

  it('keeps vectors of other weights apart (the dtype is in the key)', async () => {
    const calls: string[][] = [];
    const store = new MapStore();
    await cachedEmbedder(countingEmbedder(calls), ref('fp32'), store).embed(['x'], {
      kind: 'document',
    });
    await cachedEmbedder(countingEmbedder(calls), ref('q8'), store).embed(['x'], {
      kind: 'document',
    });
    expect(calls).toEqual([['x'], ['x']]);
  });

  it("adds to the caller's counts, so several embedders give one total", async () => {
    const store = new MapStore();
    const counts = { cached: 0, computed: 0 };
    await cachedEmbedder(countingEmbedder([]), ref('fp32'), store, counts).embed(['a', 'bb'], {
      kind: 'document',
    });
    const second = cachedEmbedder(countingEmbedder([]), ref('fp32'), store, counts);
    await second.embed(['a', 'c'], { kind: 'document' });
    expect(counts).toEqual({ cached: 1, computed: 3 });
    expect(second.counts).toBe(counts);
  });
});

describe('cachedEmbedder and the vector check', () => {
  it('drops a stored vector that fails its check, computes it again, and counts it', async () => {
    const calls: string[][] = [];
    const store = new MapStore();
    const e = cachedEmbedder(countingEmbedder(calls), ref('fp32'), store);
    await e.embed(['aa', 'b'], { kind: 'document' });
    const [poisoned] = [...store.rows.keys()];
    store.rows.set(poisoned, Float32Array.of(Number.NaN, 1));
    const m = await e.embed(['aa', 'b'], { kind: 'document' });
    expect(calls).toEqual([['aa', 'b'], ['aa']]);
    expect([...m.vectors]).toEqual([2, 1, 1, 1]);
    expect(e.counts).toEqual({ cached: 1, computed: 3, dropped: 1 });
    expect([...(store.rows.get(poisoned) ?? [])]).toEqual([2, 1]);
  });

  it('refuses what a broken model computes, naming the text, and stores nothing', async () => {
    const store = new MapStore();
    const broken: Embedder = {
      spec,
      backend: 'node',
      embed: async (texts) => ({ dim: 2, count: texts.length, vectors: new Float32Array(2) }),
      dispose: async () => undefined,
    };
    const e = cachedEmbedder(broken, ref('fp32'), store);
    await expect(e.embed(['aa'], { kind: 'document' })).rejects.toThrow(
      /^tiny-bert: the vector computed for "aa": row 0 fails the not constant check \(every number is 0\); nothing was stored$/,
    );
    expect(store.rows.size).toBe(0);
  });
});
