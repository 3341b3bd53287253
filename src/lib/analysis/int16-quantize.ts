// Rounding float32 vectors to int16 for the integer screen, with what bounds the error: each
// value's largest rounding residual and the L1 norms that multiply it (|q·r − q̂·r̂| ≤
// res(r)·‖q̂‖₁ + res(q)·‖r‖₁). One scale per query, one per block of rows.

/**
 * The largest magnitude both sides may round to: dim × limit² stays below 2³¹, so no int32 sum in
 * the kernel can overflow.
 */
export function int16Limit(dim: number): number {
  return Math.min(32767, Math.floor(Math.sqrt((2 ** 31 - 1) / dim)));
}

export interface QuantizedQueries {
  values: Int16Array;
  scale: Float64Array;
  /** Per query: its largest |q_i − scale × Q_i|. */
  residual: Float64Array;
  /** Per query: ‖scale × Q‖₁, the rounded vector's L1 norm. */
  roundedL1: Float64Array;
  /** Per query: ‖q‖₁. */
  l1: Float64Array;
  /** False when a query holds NaN or ±Infinity (the screen cannot bound it). */
  finite: boolean;
}

export function quantizeQueries(queries: Float32Array, dim: number): QuantizedQueries {
  const n = queries.length / dim;
  const limit = int16Limit(dim);
  const values = new Int16Array(queries.length);
  const scale = new Float64Array(n);
  const residual = new Float64Array(n);
  const roundedL1 = new Float64Array(n);
  const l1 = new Float64Array(n);
  let finite = true;
  for (let q = 0; q < n; q++) {
    const off = q * dim;
    let max = 0;
    for (let i = 0; i < dim; i++) max = Math.max(max, Math.abs(queries[off + i]));
    if (!Number.isFinite(max)) {
      finite = false;
      continue;
    }
    const s = max / limit;
    const inv = s === 0 ? 0 : 1 / s;
    let res = 0;
    let rl1 = 0;
    let ql1 = 0;
    for (let i = 0; i < dim; i++) {
      const x = queries[off + i];
      const v = Math.round(x * inv);
      values[off + i] = v;
      res = Math.max(res, Math.abs(x - v * s));
      rl1 += Math.abs(v * s);
      ql1 += Math.abs(x);
    }
    scale[q] = s;
    residual[q] = res;
    roundedL1[q] = rl1;
    l1[q] = ql1;
  }
  return { values, scale, residual, roundedL1, l1, finite };
}

export interface BlockQuantization {
  scale: number;
  /** A bound on |r_i − scale × R_i| over the block. */
  residual: number;
  /** Largest ‖r‖₁ over the block's rows. */
  maxL1: number;
  /** Largest |r_i| over the block. */
  maxAbs: number;
  /** False when the block holds NaN or ±Infinity: its rows then skip the screen. */
  finite: boolean;
}

/** `rows`' first n × dim values into `out` as int16, with one scale for the block. */
export function quantizeBlock(
  rows: Float32Array,
  n: number,
  dim: number,
  out: Int16Array,
): BlockQuantization {
  const len = n * dim;
  let maxAbs = 0;
  let nan = false;
  for (let i = 0; i < len; i++) {
    const ax = Math.abs(rows[i]);
    if (ax > maxAbs) maxAbs = ax;
    else if (ax !== ax) nan = true;
  }
  if (nan || !Number.isFinite(maxAbs)) {
    return { scale: 0, residual: Infinity, maxL1: Infinity, maxAbs, finite: false };
  }
  const scale = maxAbs / int16Limit(dim);
  const inv = scale === 0 ? 0 : 1 / scale;
  // Round to nearest by truncating a positive number (x × inv ≥ −32767): 4× Math.round in V8.
  // Rounding to nearest leaves at most half a step, so the residual needs no measuring.
  const residual = scale * (0.5 + 2 ** -30);
  let maxL1 = 0;
  for (let r = 0; r < n; r++) {
    let l1 = 0;
    const end = (r + 1) * dim;
    for (let i = r * dim; i < end; i++) {
      const x = rows[i];
      out[i] = ((x * inv + 32768.5) | 0) - 32768;
      l1 += Math.abs(x);
    }
    if (l1 > maxL1) maxL1 = l1;
  }
  return { scale, residual, maxL1, maxAbs, finite: true };
}
