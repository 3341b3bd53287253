/** The reproduce CLI's embedders: the models in Node with the vector cache, or synthetic vectors. */
import os from 'node:os';
import path from 'node:path';
import type { Embedder } from '../../src/lib/embed/embedder.ts';
import { createNodeEmbedder } from '../../src/lib/embed/node-embedder.ts';
import { cachedEmbedder, type CacheCounts } from '../../src/lib/embed/cached-embedder.ts';
import type { EmbedderFactory } from '../../src/lib/protocol-kit/pool.ts';
import { VectorFileStore, vectorCacheDir } from './vector-file-store.ts';

/** MEMLENS_VECTOR_CACHE=off: every run embeds every text (timings, parity checks). */
const vectorCacheOn = () => process.env.MEMLENS_VECTOR_CACHE !== 'off';

export function nodeEmbedderFactory(
  modelRoot: string | null,
  counts: CacheCounts,
): EmbedderFactory {
  return async (model) => {
    const e = await createNodeEmbedder({ model, modelRoot: modelRoot ?? undefined });
    const cacheOn = vectorCacheOn();
    const plain: Embedder = {
      spec: e.spec,
      backend: 'node',
      async embed(texts, { kind }) {
        const { dim, vectors } = await e.embed(texts, { kind });
        // With the cache on, cachedEmbedder counts what it asks this embedder for.
        if (!cacheOn) counts.computed += texts.length;
        return { dim, count: texts.length, vectors };
      },
      dispose: () => e.dispose(),
    };
    if (!cacheOn) return plain;
    const revision = model.revision.replace(/[^\w.-]+/g, '_').slice(0, 48);
    const name = model.id.replace(/[^\w.-]+/g, '_').slice(0, 80);
    // fp32 keeps its file; other dtypes name their runtime, so vectors of onnxruntime-node's
    // int8 kernels (before the CLI ran them on WASM, one text per pass) are never served.
    const runtime = model.dtype === 'fp32' ? '' : '-wasm-solo';
    const file = path.join(vectorCacheDir(), `${name}-${model.dtype}${runtime}-${revision}.jsonl`);
    return cachedEmbedder(plain, model, await VectorFileStore.open(file), counts);
  };
}

/** Seeded pseudo-random unit-free vectors: exercises the cosine path at a model's width, for timing only. */
export function syntheticEmbedderFactory(dims: number): EmbedderFactory {
  return async (model) => {
    const spec = { ...model.spec, dims };
    const vectorOf = (text: string): Float32Array => {
      let h = 2166136261;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
      const out = new Float32Array(dims);
      for (let i = 0; i < dims; i++) {
        h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
        out[i] = h / 4294967296 - 0.5;
      }
      return out;
    };
    const embedder: Embedder = {
      spec,
      backend: 'node',
      async embed(texts) {
        const vectors = new Float32Array(texts.length * dims);
        texts.forEach((t, i) => vectors.set(vectorOf(t), i * dims));
        return { dim: dims, count: texts.length, vectors };
      },
      dispose: async () => undefined,
    };
    return embedder;
  };
}

/** What embeds a run's texts: synthetic vectors (`--synthetic-dims`) or the models in Node. */
export function factoryFor(
  opts: { syntheticDims: number | null; modelRoot: string | null },
  counts: CacheCounts,
): EmbedderFactory {
  return opts.syntheticDims !== null
    ? syntheticEmbedderFactory(opts.syntheticDims)
    : nodeEmbedderFactory(opts.modelRoot, counts);
}

export function vectorLine(counts: CacheCounts): string {
  if (counts.cached + counts.computed === 0) return '';
  const where = vectorCacheOn() ? vectorCacheDir().replace(os.homedir(), '~') : 'off';
  const dropped = counts.dropped
    ? `; ${counts.dropped} stored vectors failed their check and were computed again`
    : '';
  return `\nvectors: ${counts.computed} texts embedded, ${counts.cached} from the vector cache (${where})${dropped}`;
}
