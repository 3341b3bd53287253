// Seeded synthetic corpora for the cost curve: random unit rows written straight into their
// storage (no float32 copy of the whole matrix), and queries that are noisy copies of a target row.
import {
  allocateMatrix,
  chooseStorage,
  decodeRows,
  setRow,
  type DenseMatrix,
  type VectorStorage,
} from './dense-matrix.ts';

import { seededRandom } from './seeded-random.ts';

export { seededRandom };

function fillUnit(v: Float32Array, random: () => number): void {
  let sq = 0;
  for (let i = 0; i < v.length; i++) {
    const x = random() * 2 - 1;
    v[i] = x;
    sq += x * x;
  }
  const inv = sq === 0 ? 0 : 1 / Math.sqrt(sq);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
}

export function syntheticCorpus(
  count: number,
  dim: number,
  seed = 1,
  storage: VectorStorage = chooseStorage(count, dim),
): DenseMatrix {
  const m = allocateMatrix(count, dim, storage);
  const random = seededRandom(seed);
  const row = new Float32Array(dim);
  for (let r = 0; r < count; r++) {
    fillUnit(row, random);
    setRow(m, r, row);
  }
  return m;
}

/** Each query: its target row plus uniform noise of the given size, renormalised. */
export function syntheticQueries(
  matrix: DenseMatrix,
  n: number,
  noise = 1,
  seed = 2,
): { queries: Float32Array; targets: Int32Array } {
  const { dim, count } = matrix;
  const random = seededRandom(seed);
  const queries = new Float32Array(n * dim);
  const targets = new Int32Array(n);
  const row = new Float32Array(dim);
  const jitter = new Float32Array(dim);
  for (let q = 0; q < n; q++) {
    const t = Math.floor(random() * count);
    targets[q] = t;
    const base = decodeRows(matrix, t, t + 1, row);
    fillUnit(jitter, random);
    const v = queries.subarray(q * dim, (q + 1) * dim);
    for (let i = 0; i < dim; i++) v[i] = base[i] + noise * jitter[i];
    let sq = 0;
    for (let i = 0; i < dim; i++) sq += v[i] * v[i];
    const inv = 1 / Math.sqrt(sq);
    for (let i = 0; i < dim; i++) v[i] *= inv;
  }
  return { queries, targets };
}
