// Exact top-k over a DenseMatrix for many queries: rows decoded a block at a time, a bounded heap
// per query (never a full sort), and work cut into slices that yield to the event loop, so a page
// running it never blocks for long; progress and cancel between slices.
import { decodeRows, packRows, type DenseMatrix } from './dense-matrix.ts';
import { GROUP, int16Fits } from './int16-dot.ts';
import { screenedSearch } from './screened-search.ts';
import type { SearchResult } from './search-result.ts';
import { SimdScorer, simdFits } from './simd-dot.ts';
import { SliceClock, yieldToEventLoop } from './search-slices.ts';
import { Heaps, worse } from './topk-heaps.ts';
import { assertK, type ScoredIndex } from './topk.ts';

export type { SearchResult };

/** 'simd': the WebAssembly kernel (float32 sums); 'js': float64 sums; 'auto': simd where it fits. */
export type DotKernel = 'auto' | 'js' | 'simd';

/**
 * For many-query searches also 'int16': the integer screen with float32 rescoring
 * (screened-search.ts), the same results as 'simd'. 'auto' picks it where it fits.
 */
export type SearchKernel = DotKernel | 'int16';

function allFinite(xs: Float32Array): boolean {
  for (let i = 0; i < xs.length; i++) if (!Number.isFinite(xs[i])) return false;
  return true;
}

/** The integer screen where asked, or on 'auto' for enough queries to fill its groups. */
function useScreen(kernel: SearchKernel, dim: number, queries: Float32Array): boolean {
  const fits = int16Fits(dim) && simdFits(dim);
  if (kernel === 'int16') {
    if (!fits) throw new Error('the int16 kernel needs WebAssembly SIMD and dim % 8 = 0');
    if (!allFinite(queries)) throw new RangeError('the int16 kernel needs finite queries');
    return true;
  }
  return kernel === 'auto' && fits && queries.length / dim >= GROUP / 2 && allFinite(queries);
}

function useSimd(kernel: DotKernel, dim: number): boolean {
  if (kernel === 'js') return false;
  if (simdFits(dim)) return true;
  if (kernel === 'simd') throw new Error(`the SIMD kernel needs WebAssembly SIMD and dim % 8 = 0`);
  return false;
}

export interface SearchProgress {
  /** Query × row scores computed so far, of `total`. */
  done: number;
  total: number;
}

export interface SearchOptions {
  k: number;
  /** Per query, a row whose exact rank is wanted (e.g. the memory the query is about). */
  targets?: Int32Array;
  /** Work between two yields, in ms; 25 keeps every task well under 50 ms. */
  sliceMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: SearchProgress) => void;
  /** How to give the event loop a turn; defaults to a MessageChannel round trip. */
  yieldNow?: () => Promise<void>;
  now?: () => number;
  /** Rows decoded and scored together; 256 × 384 float32 is 384 KiB, cache-sized. */
  blockRows?: number;
  kernel?: SearchKernel;
}

/** Four accumulators (about 1.6× faster in V8 than one); the same order for every row. */
function dotAt(q: Float32Array, qOff: number, rows: Float32Array, rOff: number, dim: number) {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    s0 += q[qOff + i] * rows[rOff + i];
    s1 += q[qOff + i + 1] * rows[rOff + i + 1];
    s2 += q[qOff + i + 2] * rows[rOff + i + 2];
    s3 += q[qOff + i + 3] * rows[rOff + i + 3];
  }
  for (; i < dim; i++) s0 += q[qOff + i] * rows[rOff + i];
  return s0 + s1 + (s2 + s3);
}

/**
 * Top-k rows of `matrix` for each query (`queries` row-major, `matrix.dim` wide), ranked by dot
 * product (the cosine for unit vectors), ties by lower row index, exactly as a full sort would.
 */
export async function searchDense(
  queries: Float32Array,
  matrix: DenseMatrix,
  options: SearchOptions,
): Promise<SearchResult> {
  const { dim, count } = matrix;
  const { k: wantK, targets, signal, onProgress } = options;
  assertK(wantK);
  if (queries.length % dim !== 0) throw new RangeError(`queries are not ${dim} wide`);
  const nq = queries.length / dim;
  if (targets && targets.length !== nq) throw new RangeError('one target per query');
  const k = Math.min(wantK, count);
  const sliceMs = options.sliceMs ?? 25;
  const now = options.now ?? (() => performance.now());
  const yieldNow = options.yieldNow ?? yieldToEventLoop;
  const blockRows = Math.max(1, options.blockRows ?? 256);
  const kernel = options.kernel ?? 'auto';
  const slices = { sliceMs, now, yieldNow, signal, onProgress };
  if (useScreen(kernel, dim, queries)) {
    return screenedSearch(queries, matrix, { k, targets: targets ?? null, blockRows, slices });
  }
  const heaps = new Heaps(nq, k);
  const sums = new Float64Array(nq);
  const targetScores = new Float64Array(targets ? nq : 0);
  const targetRanks = new Int32Array(targets ? nq : 0);
  const scratch = new Float32Array(Math.min(blockRows, Math.max(count, 1)) * dim);
  const one = new Float32Array(dim);
  const simd = useSimd(kernel === 'int16' ? 'simd' : kernel, dim)
    ? new SimdScorer(queries, dim, Math.min(blockRows, Math.max(count, 1)))
    : null;
  if (targets) {
    for (let q = 0; q < nq; q++) {
      const t = targets[q];
      if (!(t >= 0 && t < count)) throw new RangeError(`target ${t} is not a row`);
      const row = decodeRows(matrix, t, t + 1, one);
      if (simd) {
        simd.load(row);
        simd.score(q, 1);
        targetScores[q] = simd.out[0];
      } else targetScores[q] = dotAt(queries, q * dim, row, 0, dim);
    }
  }
  const clock = new SliceClock(slices, nq * count);
  let done = 0;
  for (let r0 = 0; r0 < count; r0 += blockRows) {
    const r1 = Math.min(count, r0 + blockRows);
    const rows = decodeRows(matrix, r0, r1, scratch);
    simd?.load(rows);
    for (let q = 0; q < nq; q++) {
      const qOff = q * dim;
      const t = targets ? targets[q] : -1;
      const ts = targets ? targetScores[q] : 0;
      let ahead = 0;
      let sum = 0;
      simd?.score(q, r1 - r0);
      for (let r = r0; r < r1; r++) {
        const s = simd ? simd.out[r - r0] : dotAt(queries, qOff, rows, (r - r0) * dim, dim);
        sum += s;
        heaps.offer(q, r, s);
        if (t >= 0 && r !== t && !worse(r, s, t, ts)) ahead++;
      }
      sums[q] += sum;
      if (t >= 0) targetRanks[q] += ahead;
      done += r1 - r0;
      // Time is read every query: one block × one query is about 0.1 ms at 384 dims.
      const pause = clock.check(done);
      if (pause) await pause;
    }
  }
  const stats = clock.finish();
  const indices = new Int32Array(nq * k);
  const scores = new Float64Array(nq * k);
  for (let q = 0; q < nq; q++) {
    heaps.sorted(q).forEach((s, i) => {
      indices[q * k + i] = s.index;
      scores[q * k + i] = s.score;
    });
  }
  const meanScores = sums.map((s) => (count ? s / count : 0));
  return {
    k,
    queries: nq,
    indices,
    scores,
    targetRanks,
    targetScores,
    meanScores,
    stats,
  };
}

/** One query's top-k, synchronously: the small entry point the protocols' dense scoring can use. */
export function denseTopK(query: Float32Array, matrix: DenseMatrix, k: number): ScoredIndex[] {
  assertK(k);
  const { dim, count } = matrix;
  if (query.length !== dim) throw new RangeError(`query length ${query.length} != dim ${dim}`);
  const heaps = new Heaps(1, Math.min(k, count));
  const blockRows = 256;
  const scratch = new Float32Array(Math.min(blockRows, Math.max(count, 1)) * dim);
  for (let r0 = 0; r0 < count; r0 += blockRows) {
    const r1 = Math.min(count, r0 + blockRows);
    const rows = decodeRows(matrix, r0, r1, scratch);
    for (let r = r0; r < r1; r++) heaps.offer(0, r, dotAt(query, 0, rows, (r - r0) * dim, dim));
  }
  return heaps.sorted(0);
}

/**
 * Every row's score for one query, in row order (what the protocols' figures need). The default
 * JavaScript kernel sums in float64, bit-identical to dense-retriever's dot.
 */
export function denseScores(
  query: Float32Array,
  matrix: DenseMatrix,
  kernel: DotKernel = 'js',
): Float64Array {
  const { dim, count } = matrix;
  if (query.length !== dim) throw new RangeError(`query length ${query.length} != dim ${dim}`);
  const out = new Float64Array(count);
  const blockRows = 256;
  const scratch = new Float32Array(Math.min(blockRows, Math.max(count, 1)) * dim);
  const simd = useSimd(kernel, dim)
    ? new SimdScorer(query, dim, Math.min(blockRows, Math.max(count, 1)))
    : null;
  for (let r0 = 0; r0 < count; r0 += blockRows) {
    const r1 = Math.min(count, r0 + blockRows);
    const rows = decodeRows(matrix, r0, r1, scratch);
    if (simd) {
      simd.load(rows);
      simd.score(0, r1 - r0);
      for (let r = r0; r < r1; r++) out[r] = simd.out[r - r0];
    } else {
      for (let r = r0; r < r1; r++) out[r] = dotAt(query, 0, rows, (r - r0) * dim, dim);
    }
  }
  return out;
}

/** Share of queries whose target ranks within the first k. */
export function recallAtK(targetRanks: Int32Array, k: number): number {
  if (targetRanks.length === 0) return 0;
  let hit = 0;
  for (const r of targetRanks) if (r < k) hit++;
  return hit / targetRanks.length;
}

/**
 * For the protocols' dense scoring: packs a corpus's unit vectors once (float32, one contiguous
 * array) and returns a scorer giving every row's score, bit-identical to dense-retriever's dot.
 */
export function packedScorer(
  rows: readonly Float32Array[],
  dim = rows[0]?.length ?? 1,
): (query: Float32Array) => Float64Array {
  const matrix = packRows(rows, dim, 'float32');
  return (query) => denseScores(query, matrix);
}
