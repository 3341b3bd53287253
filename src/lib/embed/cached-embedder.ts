// An Embedder that asks a vector store first: each distinct text the store lacks is computed once
// and stored; the rows come back in input order. The CLI wraps its Node embedders in it, over a
// file in the user's cache, so a second run of a protocol embeds nothing.
import type { Embedder, EmbeddingMatrix, EmbedOptions } from './embedder.ts';
import type { ModelRef } from './model-ref.ts';
import { refKeyScope, vectorKeys } from './vector-cache-key.ts';
import type { VectorStore } from './vector-cache.ts';

export interface CacheCounts {
  cached: number;
  computed: number;
}

export interface CachedEmbedder extends Embedder {
  /** Rows served from the store and texts computed, over every run so far. */
  readonly counts: CacheCounts;
}

/** `counts` is added to as rows come back: pass the caller's to total several embedders. */
export function cachedEmbedder(
  inner: Embedder,
  model: ModelRef,
  store: VectorStore,
  counts: CacheCounts = { cached: 0, computed: 0 },
): CachedEmbedder {
  async function embed(texts: readonly string[], opts: EmbedOptions): Promise<EmbeddingMatrix> {
    const dim = inner.spec.dims;
    const keys = await vectorKeys(refKeyScope(model, opts.kind), texts);
    const found = await store.getMany(keys);
    const missing = new Map<string, string>();
    keys.forEach((key, i) => {
      if (!found[i] && !missing.has(key)) missing.set(key, texts[i]);
    });
    const computed = new Map<string, Float32Array>();
    if (missing.size > 0) {
      const fresh = await inner.embed([...missing.values()], opts);
      [...missing.keys()].forEach((key, i) =>
        computed.set(key, fresh.vectors.slice(i * dim, (i + 1) * dim)),
      );
      await store.putMany([...computed].map(([key, vector]) => ({ key, vector })));
    }
    const vectors = new Float32Array(texts.length * dim);
    keys.forEach((key, i) => {
      const row = found[i] ?? computed.get(key);
      if (!row || row.length !== dim) throw new Error(`no ${dim}-dim vector for row ${i}`);
      vectors.set(row, i * dim);
    });
    counts.cached += keys.length - missing.size;
    counts.computed += missing.size;
    return { dim, count: texts.length, vectors };
  }
  return {
    spec: inner.spec,
    backend: inner.backend,
    counts,
    embed,
    dispose: () => inner.dispose(),
  };
}
