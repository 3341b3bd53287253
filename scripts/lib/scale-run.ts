// One point of the cost curve, the same code in Node and in the browser bundle: a synthetic corpus
// of `count` unit vectors, `queries` noisy copies of random rows, exact top-k with target ranks.
import {
  chooseStorage,
  storageBytes,
  type DenseMatrix,
  type VectorStorage,
} from '../../src/lib/analysis/dense-matrix.ts';
import {
  recallAtK,
  searchDense,
  type SearchKernel,
  type SearchResult,
} from '../../src/lib/analysis/dense-search.ts';
import { syntheticCorpus, syntheticQueries } from '../../src/lib/analysis/synthetic-vectors.ts';

export interface ScaleParams {
  count: number;
  dim: number;
  queries: number;
  k: number;
  kernel: SearchKernel;
}

export interface ScalePoint extends ScaleParams {
  storage: VectorStorage;
  matrixBytes: number;
  generateMs: number;
  searchMs: number;
  slices: number;
  longestSliceMs: number;
  recallAt1: number;
  recallAt10: number;
  recallAtK: number;
  meanTargetScore: number;
  meanScore: number;
  /** The kernel that ran: 'int16' (screen + float32 rescoring), 'simd' or 'js'. */
  ran: 'int16' | 'simd' | 'js';
  /** Screen only: rows rescored in float32 per query. */
  rescoredPerQuery: number | null;
}

const mean = (xs: Float64Array) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

export interface PreparedScale {
  params: ScaleParams;
  storage: VectorStorage;
  matrix: DenseMatrix;
  queries: Float32Array;
  targets: Int32Array;
  generateMs: number;
}

export function prepareScalePoint(params: ScaleParams): PreparedScale {
  const storage = chooseStorage(params.count, params.dim);
  const t0 = performance.now();
  const matrix = syntheticCorpus(params.count, params.dim, 1, storage);
  const { queries, targets } = syntheticQueries(matrix, params.queries, 2.5, 2);
  return { params, storage, matrix, queries, targets, generateMs: performance.now() - t0 };
}

export async function searchScalePoint(
  prep: PreparedScale,
): Promise<{ point: ScalePoint; result: SearchResult }> {
  const { params: p, storage } = prep;
  const t1 = performance.now();
  const res = await searchDense(prep.queries, prep.matrix, {
    k: p.k,
    targets: prep.targets,
    kernel: p.kernel,
  });
  const t2 = performance.now();
  const rescored = res.stats.rescored;
  const point: ScalePoint = {
    ...p,
    storage,
    matrixBytes: storageBytes(p.count, p.dim, storage),
    generateMs: prep.generateMs,
    searchMs: t2 - t1,
    slices: res.stats.slices,
    longestSliceMs: res.stats.longestSliceMs,
    recallAt1: recallAtK(res.targetRanks, 1),
    recallAt10: recallAtK(res.targetRanks, 10),
    recallAtK: recallAtK(res.targetRanks, p.k),
    meanTargetScore: mean(res.targetScores),
    meanScore: mean(res.meanScores),
    ran: rescored !== undefined ? 'int16' : p.kernel === 'js' ? 'js' : 'simd',
    rescoredPerQuery: rescored !== undefined ? rescored / res.queries : null,
  };
  return { point, result: res };
}

const sameArray = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.from(a).every((x, i) => Object.is(x, b[i]));

/**
 * Whether `result` has the float32 kernel's exact top-k (indices and scores) and target ranks on
 * the same data: the check that the integer screen loses nothing.
 */
export async function matchesFloat32(prep: PreparedScale, result: SearchResult): Promise<boolean> {
  const ref = await searchDense(prep.queries, prep.matrix, {
    k: prep.params.k,
    targets: prep.targets,
    kernel: 'simd',
  });
  return (
    sameArray(ref.indices, result.indices) &&
    sameArray(ref.scores, result.scores) &&
    sameArray(ref.targetRanks, result.targetRanks) &&
    sameArray(ref.targetScores, result.targetScores)
  );
}
