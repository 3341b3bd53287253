// One point of the cost curve, the same code in Node and in the browser bundle: a synthetic corpus
// of `count` unit vectors, `queries` noisy copies of random rows, exact top-k with target ranks.
import {
  chooseStorage,
  storageBytes,
  type DenseMatrix,
  type VectorStorage,
} from '../../src/lib/analysis/dense-matrix.ts';
import { recallAtK, searchDense, type DotKernel } from '../../src/lib/analysis/dense-search.ts';
import { syntheticCorpus, syntheticQueries } from '../../src/lib/analysis/synthetic-vectors.ts';

export interface ScaleParams {
  count: number;
  dim: number;
  queries: number;
  k: number;
  kernel: DotKernel;
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

export async function searchScalePoint(prep: PreparedScale): Promise<ScalePoint> {
  const { params: p, storage } = prep;
  const t1 = performance.now();
  const res = await searchDense(prep.queries, prep.matrix, {
    k: p.k,
    targets: prep.targets,
    kernel: p.kernel,
  });
  const t2 = performance.now();
  return {
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
  };
}

export async function runScalePoint(params: ScaleParams): Promise<ScalePoint> {
  return searchScalePoint(prepareScalePoint(params));
}
