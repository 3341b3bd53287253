import { describe, expect, it } from 'vitest';
import {
  allocateMatrix,
  packRows,
  setRow,
  type DenseMatrix,
  type VectorStorage,
} from '../../../src/lib/analysis/dense-matrix.ts';
import {
  denseScores,
  denseTopK,
  type DotKernel,
  type SearchKernel,
  packedScorer,
  recallAtK,
  searchDense,
} from '../../../src/lib/analysis/dense-search.ts';
import { l2Normalize } from '../../../src/lib/analysis/cosine.ts';
import { denseRetriever } from '../../../src/lib/protocol-kit/dense-retriever.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';
import type { Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { compareRanked, topKOfScores, type ScoredIndex } from '../../../src/lib/analysis/topk.ts';
import {
  seededRandom,
  syntheticCorpus,
  syntheticQueries,
} from '../../../src/lib/analysis/synthetic-vectors.ts';

const DIM = 24;

/** The reference: every score (same kernel), then a full sort by the documented ranking rule. */
function naiveTopK(query: Float32Array, m: DenseMatrix, k: number, kernel: DotKernel = 'js') {
  const scores = denseScores(query, m, kernel);
  const all: ScoredIndex[] = Array.from(scores, (score, index) => ({ index, score }));
  return all.sort(compareRanked).slice(0, k);
}

describe('chunked dense top-k', () => {
  it('equals a naive full sort on random data, for every storage, kernel, k and block size', async () => {
    for (const storage of ['float32', 'float16', 'int8'] as VectorStorage[]) {
      const m = syntheticCorpus(1000, DIM, 7, storage);
      const { queries, targets } = syntheticQueries(m, 40, 1.5, 9);
      for (const kernel of ['js', 'simd', 'int16'] as SearchKernel[]) {
        // The integer screen rescores with the float32 kernel: its results are exactly those.
        const reference: DotKernel = kernel === 'int16' ? 'simd' : kernel;
        for (const k of [1, 10, 50]) {
          let ticks = 0;
          let t = 0;
          const res = await searchDense(queries, m, {
            k,
            targets,
            kernel,
            blockRows: 97,
            sliceMs: 1,
            now: () => (t += 0.5),
            yieldNow: async () => {
              ticks++;
            },
          });
          expect(ticks).toBeGreaterThan(0);
          for (let q = 0; q < res.queries; q++) {
            const query = queries.subarray(q * DIM, (q + 1) * DIM);
            const want = naiveTopK(query, m, k, reference);
            const got = Array.from({ length: k }, (_, i) => ({
              index: res.indices[q * k + i],
              score: res.scores[q * k + i],
            }));
            expect(got).toEqual(want);
            const full = naiveTopK(query, m, m.count, reference);
            expect(res.targetRanks[q]).toBe(full.findIndex((s) => s.index === targets[q]));
          }
        }
      }
    }
  });

  it('gives the same ranking on both kernels where scores are not near-ties', async () => {
    const m = syntheticCorpus(3000, 64, 13);
    const { queries, targets } = syntheticQueries(m, 30, 1, 14);
    const js = await searchDense(queries, m, { k: 5, targets, kernel: 'js' });
    const simd = await searchDense(queries, m, { k: 5, targets, kernel: 'simd' });
    for (let i = 0; i < js.scores.length; i++) {
      expect(Math.abs(js.scores[i] - simd.scores[i])).toBeLessThan(1e-5);
    }
    expect(recallAtK(simd.targetRanks, 1)).toBe(recallAtK(js.targetRanks, 1));
    await expect(
      searchDense(Float32Array.of(1, 0), packRows([Float32Array.of(1, 0)], 2), {
        k: 1,
        kernel: 'simd',
      }),
    ).rejects.toThrow(/SIMD/);
  });

  it('breaks ties by lower row index, as topKOfScores does', async () => {
    const m = allocateMatrix(6, 2, 'float32');
    [
      [1, 0],
      [0, 1],
      [1, 0],
      [0.6, 0.8],
      [1, 0],
      [0, 1],
    ].forEach((v, r) => setRow(m, r, v));
    const q = Float32Array.of(1, 0);
    const want = topKOfScores(denseScores(q, m), 4);
    expect(denseTopK(q, m, 4)).toEqual(want);
    expect(want.map((s) => s.index)).toEqual([0, 2, 4, 3]);
    const res = await searchDense(q, m, { k: 4, targets: Int32Array.of(4) });
    expect(Array.from(res.indices)).toEqual([0, 2, 4, 3]);
    expect(res.targetRanks[0]).toBe(2);
    expect(res.k).toBe(4);
  });

  it('denseTopK matches the full sort for one query, and caps k at the row count', () => {
    const m = syntheticCorpus(300, DIM, 3, 'float32');
    const { queries } = syntheticQueries(m, 1, 0.5, 4);
    expect(denseTopK(queries, m, 20)).toEqual(topKOfScores(denseScores(queries, m), 20));
    expect(denseTopK(queries, m, 1000)).toHaveLength(300);
    expect(denseTopK(queries, m, 0)).toEqual([]);
  });

  it('reports progress, yields between slices and stops when cancelled', async () => {
    const m = syntheticCorpus(2000, DIM, 5);
    const { queries } = syntheticQueries(m, 20);
    const seen: number[] = [];
    const controller = new AbortController();
    let t = 0;
    const run = searchDense(queries, m, {
      k: 5,
      blockRows: 100,
      sliceMs: 1,
      now: () => (t += 0.25),
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p.done / p.total);
        if (seen.length === 3) controller.abort(new Error('stop'));
      },
    });
    await expect(run).rejects.toThrow('stop');
    expect(seen).toHaveLength(3);
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[2]).toBeLessThan(1);
    const full = await searchDense(queries, m, { k: 5, onProgress: (p) => seen.push(p.done) });
    expect(seen.at(-1)).toBe(2000 * 20);
    expect(full.stats.slices).toBeGreaterThanOrEqual(1);
  });

  it('ends each slice at the first query past its budget', async () => {
    const m = syntheticCorpus(4000, 16, 11);
    const { queries } = syntheticQueries(m, 30);
    let t = 0;
    // Every clock read is one more millisecond: a slice overshoots its 10 ms by one read at most.
    const res = await searchDense(queries, m, { k: 10, sliceMs: 10, now: () => ++t });
    expect(res.stats.slices).toBeGreaterThan(5);
    expect(res.stats.longestSliceMs).toBeLessThanOrEqual(11);
    // On the real clock it yields too (how long a slice takes then depends on the machine's load).
    const big = syntheticCorpus(20_000, 64, 12);
    const real = await searchDense(syntheticQueries(big, 30).queries, big, { k: 10, sliceMs: 5 });
    expect(real.stats.slices).toBeGreaterThan(1);
  });

  it('finds most noisy copies of their target, and recall@k only grows with k', async () => {
    const m = syntheticCorpus(5000, 64, 21);
    const { queries, targets } = syntheticQueries(m, 200, 0.8, 22);
    const res = await searchDense(queries, m, { k: 10, targets });
    const r1 = recallAtK(res.targetRanks, 1);
    expect(r1).toBeGreaterThan(0.5);
    expect(recallAtK(res.targetRanks, 10)).toBeGreaterThanOrEqual(r1);
    expect(recallAtK(new Int32Array(0), 5)).toBe(0);
    for (let q = 0; q < res.queries; q++) {
      expect(res.targetScores[q]).toBeGreaterThan(res.meanScores[q]);
    }
  });

  it('rejects queries of the wrong width and targets that are not rows', async () => {
    const m = syntheticCorpus(10, 4);
    await expect(searchDense(new Float32Array(5), m, { k: 1 })).rejects.toThrow(RangeError);
    await expect(
      searchDense(new Float32Array(4), m, { k: 1, targets: Int32Array.of(10) }),
    ).rejects.toThrow(RangeError);
    expect(() => denseTopK(new Float32Array(3), m, 1)).toThrow(RangeError);
  });
});

describe('packedScorer, for the protocols', () => {
  it('scores a corpus bit-identically to the dense retriever it can replace', async () => {
    const dim = 37;
    const random = seededRandom(5);
    const docs = Array.from({ length: 60 }, (_, i) => `doc ${i}`);
    const queries = ['q one', 'q two', 'q three'];
    const vectorOf = new Map<string, Float32Array>();
    for (const t of [...docs, ...queries]) {
      vectorOf.set(
        t,
        Float32Array.from({ length: dim }, () => random() * 2 - 1),
      );
    }
    const embedder: Embedder = {
      spec: getModelSpec('tiny-bert'),
      backend: 'node',
      async embed(texts) {
        const vectors = new Float32Array(texts.length * dim);
        texts.forEach((t, i) => vectors.set(vectorOf.get(t) ?? [], i * dim));
        return { dim, count: texts.length, vectors };
      },
      async dispose() {},
    };
    const corpus = { id: 'c', docs, docIds: docs };
    const protocol: Protocol = {
      benchmark: 'inmind',
      notes: [],
      corpora: corpusMap([corpus]),
      queries: queries.map((text, i) => ({
        id: `q${i}`,
        series: 's',
        group: 'g',
        text,
        corpusId: 'c',
        goldIds: [],
      })),
      defaultK: 5,
    };
    const retriever = denseRetriever(embedder, { queryPrefix: false });
    await retriever.prepare(protocol);
    const viaRetriever = retriever.forCorpus(corpus);
    const unit = (t: string) => l2Normalize(vectorOf.get(t) ?? []);
    const score = packedScorer(docs.map(unit));
    for (const q of queries) expect(score(unit(q))).toEqual(viaRetriever(q));
  });
});
