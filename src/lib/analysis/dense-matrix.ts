// Many vectors in one contiguous typed array (no per-row objects), stored as float32 while that
// fits, as float16 or int8 where float32 would pass the budget (about 1 GB by default).
export type VectorStorage = 'float32' | 'float16' | 'int8';

export interface DenseMatrix {
  readonly dim: number;
  readonly count: number;
  readonly storage: VectorStorage;
  readonly data: Float32Array | Uint16Array | Int8Array;
  /** int8 only: each row's scale (its largest magnitude / 127). */
  readonly scales: Float32Array | null;
}

export const FLOAT32_BUDGET_BYTES = 2 ** 30;

const BYTES: Record<VectorStorage, number> = { float32: 4, float16: 2, int8: 1 };

export function storageBytes(count: number, dim: number, storage: VectorStorage): number {
  return count * dim * BYTES[storage] + (storage === 'int8' ? count * 4 : 0);
}

/** float32 while it fits the budget, then float16, then int8. */
export function chooseStorage(
  count: number,
  dim: number,
  budget = FLOAT32_BUDGET_BYTES,
): VectorStorage {
  if (storageBytes(count, dim, 'float32') <= budget) return 'float32';
  if (storageBytes(count, dim, 'float16') <= budget) return 'float16';
  return 'int8';
}

export function allocateMatrix(count: number, dim: number, storage: VectorStorage): DenseMatrix {
  if (!Number.isInteger(dim) || dim <= 0) throw new RangeError('dim must be a positive integer');
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be an integer ≥ 0');
  const n = count * dim;
  const data =
    storage === 'float32'
      ? new Float32Array(n)
      : storage === 'float16'
        ? new Uint16Array(n)
        : new Int8Array(n);
  return { dim, count, storage, data, scales: storage === 'int8' ? new Float32Array(count) : null };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 half precision, round to nearest even; overflow becomes ±Infinity. */
export function toFloat16Bits(x: number): number {
  f32[0] = x;
  const bits = u32[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = m & ((1 << shift) - 1);
    let out = m >>> shift;
    if (rest > half || (rest === half && out & 1)) out++;
    return sign | out;
  }
  let out = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && out & 1)) out++;
  return sign | out;
}

let halfTable: Float32Array | null = null;

/** All 65,536 half values, decoded once. */
export function float16Table(): Float32Array {
  if (halfTable) return halfTable;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >>> 10) & 0x1f;
    const mant = h & 0x3ff;
    if (exp === 0) t[h] = sign * mant * 2 ** -24;
    else if (exp === 0x1f) t[h] = mant ? NaN : sign * Infinity;
    else t[h] = sign * (1 + mant / 1024) * 2 ** (exp - 15);
  }
  halfTable = t;
  return t;
}

export function setRow(m: DenseMatrix, row: number, v: ArrayLike<number>): void {
  const { dim } = m;
  if (v.length !== dim) throw new RangeError(`row length ${v.length} != dim ${dim}`);
  const off = row * dim;
  if (m.data instanceof Float32Array) {
    for (let i = 0; i < dim; i++) m.data[off + i] = v[i];
  } else if (m.data instanceof Uint16Array) {
    for (let i = 0; i < dim; i++) m.data[off + i] = toFloat16Bits(v[i]);
  } else if (m.scales) {
    let max = 0;
    for (let i = 0; i < dim; i++) max = Math.max(max, Math.abs(v[i]));
    const scale = max / 127;
    m.scales[row] = scale;
    const inv = scale === 0 ? 0 : 1 / scale;
    for (let i = 0; i < dim; i++) m.data[off + i] = Math.round(v[i] * inv);
  }
}

/**
 * Rows [start, end) as float32, row-major. float32 storage returns a view (no copy); the others
 * decode into `scratch`, which must hold (end - start) × dim values.
 */
export function decodeRows(
  m: DenseMatrix,
  start: number,
  end: number,
  scratch: Float32Array,
): Float32Array {
  const { dim, data } = m;
  if (data instanceof Float32Array) return data.subarray(start * dim, end * dim);
  const n = (end - start) * dim;
  const out = scratch.subarray(0, n);
  const base = start * dim;
  if (data instanceof Uint16Array) {
    const table = float16Table();
    for (let i = 0; i < n; i++) out[i] = table[data[base + i]];
  } else if (m.scales) {
    for (let r = start; r < end; r++) {
      const scale = m.scales[r];
      const o = (r - start) * dim;
      for (let i = 0; i < dim; i++) out[o + i] = data[r * dim + i] * scale;
    }
  }
  return out;
}

/** Per-row vectors packed into one matrix. */
export function packRows(
  rows: readonly ArrayLike<number>[],
  dim: number,
  storage: VectorStorage = chooseStorage(rows.length, dim),
): DenseMatrix {
  const m = allocateMatrix(rows.length, dim, storage);
  rows.forEach((v, r) => setRow(m, r, v));
  return m;
}
