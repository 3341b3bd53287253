import { describe, expect, it } from 'vitest';
import {
  allocateMatrix,
  decodeRows,
  setRow,
  type DenseMatrix,
  type VectorStorage,
} from '../../../src/lib/analysis/dense-matrix.ts';
import { searchDense, type SearchResult } from '../../../src/lib/analysis/dense-search.ts';
import { screenedSearch } from '../../../src/lib/analysis/screened-search.ts';
import { yieldToEventLoop } from '../../../src/lib/analysis/search-slices.ts';
import {
  seededRandom,
  syntheticCorpus,
  syntheticQueries,
} from '../../../src/lib/analysis/synthetic-vectors.ts';

const slices = { sliceMs: 25, now: () => performance.now(), yieldNow: yieldToEventLoop };

function same(got: SearchResult, want: SearchResult): void {
  expect(got.k).toBe(want.k);
  expect(Array.from(got.indices)).toEqual(Array.from(want.indices));
  expect(Array.from(got.scores)).toEqual(Array.from(want.scores));
  expect(Array.from(got.targetRanks)).toEqual(Array.from(want.targetRanks));
  expect(Array.from(got.targetScores)).toEqual(Array.from(want.targetScores));
  got.meanScores.forEach((m, q) => expect(Math.abs(m - want.meanScores[q])).toBeLessThan(1e-6));
}

/** A corpus built to defeat a careless screen: duplicates (exact ties), near-ties, a zero row. */
function tiedCorpus(): DenseMatrix {
  const dim = 32;
  const base = syntheticCorpus(40, dim, 31, 'float32');
  const m = allocateMatrix(600, dim, 'float32');
  const random = seededRandom(32);
  const row = new Float32Array(dim);
  for (let r = 0; r < m.count; r++) {
    const src = decodeRows(base, r % 40, (r % 40) + 1, row);
    const nudged = Float32Array.from(src, (x) => (r % 3 === 0 ? x : x + (random() - 0.5) * 1e-6));
    setRow(m, r, r === 77 ? new Float32Array(dim) : nudged);
  }
  return m;
}

describe('integer screen with float32 rescoring', () => {
  it('returns exactly the float32 kernel’s results on random data, rescoring a small share', async () => {
    for (const storage of ['float32', 'float16', 'int8'] as VectorStorage[]) {
      const m = syntheticCorpus(5000, 64, 41, storage);
      const { queries, targets } = syntheticQueries(m, 24, 1.5, 42);
      const want = await searchDense(queries, m, { k: 10, targets, kernel: 'simd' });
      const got = await screenedSearch(queries, m, { k: 10, targets, blockRows: 256, slices });
      same(got, want);
      expect(got.stats.rescored).toBeGreaterThan(0);
      expect(got.stats.rescored).toBeLessThan(0.1 * 24 * 5000);
    }
  });

  it('keeps exact ties, near-ties and a zero row in the float32 order', async () => {
    const m = tiedCorpus();
    const { queries } = syntheticQueries(m, 20, 0.3, 33);
    const targets = Int32Array.from({ length: 20 }, (_, q) => (q * 37) % m.count);
    targets[0] = 77;
    for (const k of [0, 1, 15, 40, 600, 1000]) {
      const want = await searchDense(queries, m, { k, targets, kernel: 'simd' });
      const got = await searchDense(queries, m, { k, targets, kernel: 'int16', blockRows: 64 });
      same(got, want);
    }
  });

  it('handles an empty corpus and fewer rows than k', async () => {
    const empty = allocateMatrix(0, 8, 'float32');
    const queries = new Float32Array(8 * 8).fill(0.5);
    const none = await searchDense(queries, empty, { k: 3, kernel: 'int16' });
    expect(none.k).toBe(0);
    expect(Array.from(none.meanScores)).toEqual(new Array(8).fill(0));
    const few = syntheticCorpus(5, 8, 3);
    same(
      await searchDense(queries, few, { k: 9, kernel: 'int16' }),
      await searchDense(queries, few, { k: 9, kernel: 'simd' }),
    );
  });

  it('rescores blocks holding NaN or Infinity instead of bounding them', async () => {
    const m = syntheticCorpus(700, 16, 51, 'float32');
    const bad = new Float32Array(16).fill(0.25);
    bad[3] = NaN;
    setRow(m, 5, bad);
    const inf = new Float32Array(16);
    inf[0] = Infinity;
    setRow(m, 300, inf);
    const { queries } = syntheticQueries(syntheticCorpus(700, 16, 51, 'float32'), 9, 0.5, 52);
    const targets = Int32Array.of(5, 300, 0, 1, 2, 299, 301, 600, 699);
    const want = await searchDense(queries, m, { k: 7, targets, kernel: 'simd' });
    const got = await searchDense(queries, m, { k: 7, targets, kernel: 'int16', blockRows: 128 });
    expect(Array.from(got.indices)).toEqual(Array.from(want.indices));
    expect(Array.from(got.targetRanks)).toEqual(Array.from(want.targetRanks));
    await expect(
      searchDense(new Float32Array(16).fill(NaN), m, { k: 1, kernel: 'int16' }),
    ).rejects.toThrow(/finite/);
  });

  it('is what auto picks for a batch of queries, and stops when cancelled', async () => {
    const m = syntheticCorpus(3000, 32, 61);
    const { queries, targets } = syntheticQueries(m, 16, 1, 62);
    const auto = await searchDense(queries, m, { k: 5, targets });
    expect(auto.stats.rescored).toBeGreaterThan(0);
    const single = await searchDense(queries.subarray(0, 32), m, { k: 5 });
    expect(single.stats.rescored).toBeUndefined();
    const controller = new AbortController();
    let t = 0;
    const run = searchDense(queries, m, {
      k: 5,
      kernel: 'int16',
      blockRows: 100,
      sliceMs: 1,
      now: () => (t += 0.5),
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('stop')),
    });
    await expect(run).rejects.toThrow('stop');
  });
});
