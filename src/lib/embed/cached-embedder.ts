// An Embedder that asks a vector store first: each distinct text the store lacks is computed once
// and stored; the rows come back in input order. The CLI wraps its Node embedders in it, over a
// file in the user's cache, so a second run of a protocol embeds nothing.
import type { Embedder, EmbeddingMatrix, EmbedOptions } from './embedder.ts';
import type { ModelRef } from './model-ref.ts';
import { refKeyScope, vectorKeys } from './vector-cache-key.ts';
import type { VectorStore } from './vector-cache.ts';
import { describeFault, rowFault, rowsFaults } from './vector-check.ts';

export interface CacheCounts {
  cached: number;
  computed: number;
  /** Stored vectors that failed their check (vector-check.ts), dropped and computed again. */
  dropped?: number;
}

/** The model's vectors must pass their check before they are stored: a broken model stops here. */
function refuseComputed(
  label: string,
  texts: readonly string[],
  fresh: EmbeddingMatrix,
  normalize: boolean,
) {
  const shape = { dim: fresh.dim, normalize };
  for (let i = 0; i < fresh.count; i++) {
    const fault = rowFault(fresh.vectors, i * fresh.dim, fresh.dim, shape);
    if (fault) {
      const text = JSON.stringify(texts[i].slice(0, 60));
      throw new Error(
        `${label}: ${describeFault(`the vector computed for ${text}: `, { row: i, ...fault })}; nothing was stored`,
      );
    }
  }
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
    const shape = { dim, normalize: inner.spec.normalize };
    const faults = rowsFaults(found, shape);
    for (const f of faults) found[f.row] = undefined;
    if (faults.length > 0) counts.dropped = (counts.dropped ?? 0) + faults.length;
    const missing = new Map<string, string>();
    keys.forEach((key, i) => {
      if (!found[i] && !missing.has(key)) missing.set(key, texts[i]);
    });
    const computed = new Map<string, Float32Array>();
    if (missing.size > 0) {
      const fresh = await inner.embed([...missing.values()], opts);
      refuseComputed(model.id, [...missing.values()], fresh, inner.spec.normalize);
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
