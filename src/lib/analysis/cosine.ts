import { TopKSelector, type ScoredIndex } from './topk.ts';

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`length mismatch: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** Cosine of two arbitrary vectors; 0 when either has zero norm. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const denom = Math.sqrt(dot(a, a)) * Math.sqrt(dot(b, b));
  return denom === 0 ? 0 : dot(a, b) / denom;
}

/** A zero vector stays zero rather than becoming NaN. */
export function l2Normalize(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  scaleToUnit(out, 0, out.length);
  return out;
}

export function rowCount(matrix: Float32Array, dim: number): number {
  if (!Number.isInteger(dim) || dim <= 0) throw new RangeError(`dim must be a positive integer`);
  if (matrix.length % dim !== 0) {
    throw new RangeError(`matrix length ${matrix.length} is not a multiple of dim ${dim}`);
  }
  return matrix.length / dim;
}

export function normalizeRowsInPlace(matrix: Float32Array, dim: number): Float32Array {
  const count = rowCount(matrix, dim);
  for (let r = 0; r < count; r++) scaleToUnit(matrix, r * dim, dim);
  return matrix;
}

function scaleToUnit(data: Float32Array, offset: number, length: number): void {
  let sq = 0;
  for (let i = offset; i < offset + length; i++) sq += data[i] * data[i];
  if (sq === 0) return;
  const inv = 1 / Math.sqrt(sq);
  for (let i = offset; i < offset + length; i++) data[i] *= inv;
}

function rowDot(query: Float32Array, matrix: Float32Array, offset: number, dim: number): number {
  let sum = 0;
  for (let i = 0; i < dim; i++) sum += query[i] * matrix[offset + i];
  return sum;
}

function checkQuery(query: Float32Array, dim: number): void {
  if (query.length !== dim) throw new RangeError(`query length ${query.length} != dim ${dim}`);
}

/**
 * Rows of `matrix` (row-major, `dim` wide) and `query` must already be L2-normalised, so the dot
 * product is the cosine. Accumulates in float64.
 */
export function cosineScoresAll(
  query: Float32Array,
  matrix: Float32Array,
  dim: number,
): Float64Array {
  const count = rowCount(matrix, dim);
  checkQuery(query, dim);
  const out = new Float64Array(count);
  for (let r = 0; r < count; r++) out[r] = rowDot(query, matrix, r * dim, dim);
  return out;
}

/** Same inputs as `cosineScoresAll`; ranked by score desc, ties by lower row index. */
export function topKByCosine(
  query: Float32Array,
  matrix: Float32Array,
  dim: number,
  k: number,
): ScoredIndex[] {
  const count = rowCount(matrix, dim);
  checkQuery(query, dim);
  const selector = new TopKSelector(k);
  for (let r = 0; r < count; r++) selector.push(r, rowDot(query, matrix, r * dim, dim));
  return selector.result();
}
