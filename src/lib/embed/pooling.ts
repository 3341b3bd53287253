// The one place pooling lives: the browser and Node embedders both pool here, so their vectors
// can only differ by what the model itself computed.
import type { Pooling } from './model-registry.ts';

/** Row-major `[batch, seq, dim]` hidden states. */
export interface HiddenStates {
  data: ArrayLike<number>;
  batch: number;
  seq: number;
  dim: number;
}

/** Row-major `[batch, seq]` attention mask, 1 = real token (int64 tensors arrive as bigint). */
export type MaskData = ArrayLike<number> | ArrayLike<bigint>;

// Same floor as sentence-transformers (clamp(min=1e-9)) and torch's F.normalize (eps=1e-12).
const MIN_TOKEN_COUNT = 1e-9;
const MIN_NORM = 1e-12;

function checkShape(hidden: HiddenStates, mask?: MaskData): void {
  const { data, batch, seq, dim } = hidden;
  if (data.length !== batch * seq * dim) {
    throw new RangeError(
      `hidden states have ${data.length} values, expected ${batch}×${seq}×${dim}`,
    );
  }
  if (mask && mask.length !== batch * seq) {
    throw new RangeError(`attention mask has ${mask.length} values, expected ${batch}×${seq}`);
  }
}

/** Average of the token vectors whose mask is non-zero; padding never contributes. */
export function meanPool(hidden: HiddenStates, mask: MaskData): Float32Array {
  checkShape(hidden, mask);
  const { data, batch, seq, dim } = hidden;
  const out = new Float32Array(batch * dim);
  const sum = new Float64Array(dim);
  for (let b = 0; b < batch; b++) {
    sum.fill(0);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      const weight = Number(mask[b * seq + s]);
      if (weight === 0) continue;
      count += weight;
      const offset = (b * seq + s) * dim;
      for (let d = 0; d < dim; d++) sum[d] += data[offset + d] * weight;
    }
    const divisor = Math.max(count, MIN_TOKEN_COUNT);
    for (let d = 0; d < dim; d++) out[b * dim + d] = sum[d] / divisor;
  }
  return out;
}

/** The vector at position 0 ([CLS]) of every sequence. */
export function clsPool(hidden: HiddenStates): Float32Array {
  checkShape(hidden);
  const { data, batch, seq, dim } = hidden;
  const out = new Float32Array(batch * dim);
  for (let b = 0; b < batch; b++) {
    for (let d = 0; d < dim; d++) out[b * dim + d] = data[b * seq * dim + d];
  }
  return out;
}

/** Scales each `dim`-long row to unit L2 norm, in place; all-zero rows stay zero. */
export function l2Normalize(vectors: Float32Array, dim: number): Float32Array {
  if (dim <= 0 || vectors.length % dim !== 0) {
    throw new RangeError(`${vectors.length} values are not rows of ${dim}`);
  }
  for (let start = 0; start < vectors.length; start += dim) {
    let squares = 0;
    for (let d = 0; d < dim; d++) squares += vectors[start + d] ** 2;
    const norm = Math.max(Math.sqrt(squares), MIN_NORM);
    for (let d = 0; d < dim; d++) vectors[start + d] /= norm;
  }
  return vectors;
}

export function pool(
  hidden: HiddenStates,
  mask: MaskData,
  options: { pooling: Pooling; normalize: boolean },
): Float32Array {
  const pooled = options.pooling === 'cls' ? clsPool(hidden) : meanPool(hidden, mask);
  return options.normalize ? l2Normalize(pooled, hidden.dim) : pooled;
}
