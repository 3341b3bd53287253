// Exact top-k over a DenseMatrix for many queries: rows decoded a block at a time, a bounded heap
// per query (never a full sort), and work cut into slices that yield to the event loop, so a page
// running it never blocks for long; progress and cancel between slices.
import { decodeRows, packRows, type DenseMatrix } from './dense-matrix.ts';
import { SimdScorer, simdFits } from './simd-dot.ts';
import { assertK, compareRanked, type ScoredIndex } from './topk.ts';

/** 'simd': the WebAssembly kernel (float32 sums); 'js': float64 sums; 'auto': simd where it fits. */
export type DotKernel = 'auto' | 'js' | 'simd';

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
  kernel?: DotKernel;
}

export interface SearchResult {
  k: number;
  queries: number;
  /** Row indices, `k` per query (fewer when the matrix has fewer rows), best first. */
  indices: Int32Array;
  scores: Float64Array;
  /** Per query, how many rows rank before its target (0 = first); empty without targets. */
  targetRanks: Int32Array;
  targetScores: Float64Array;
  /** Per query, the mean score over all rows. */
  meanScores: Float64Array;
  stats: { slices: number; longestSliceMs: number; elapsedMs: number };
}

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
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

/** True when (ai, as) ranks below (bi, bs): lower score, NaN lowest, ties by higher index. */
function worse(ai: number, as: number, bi: number, bs: number): boolean {
  const aNaN = as !== as;
  const bNaN = bs !== bs;
  if (aNaN !== bNaN) return aNaN;
  if (!aNaN && as !== bs) return as < bs;
  return ai > bi;
}

/** k-bounded heaps, one per query, in flat typed arrays; each root is that query's worst kept. */
class Heaps {
  readonly idx: Int32Array;
  readonly score: Float64Array;
  readonly size: Int32Array;

  constructor(
    readonly count: number,
    readonly k: number,
  ) {
    this.idx = new Int32Array(count * k);
    this.score = new Float64Array(count * k);
    this.size = new Int32Array(count);
  }

  /** Rows arrive in ascending index, so an equal score never displaces a kept row. */
  offer(q: number, row: number, s: number): void {
    const k = this.k;
    if (k === 0) return;
    const base = q * k;
    const n = this.size[q];
    if (n < k) {
      let i = n;
      this.size[q] = n + 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(row, s, this.idx[base + p], this.score[base + p])) break;
        this.idx[base + i] = this.idx[base + p];
        this.score[base + i] = this.score[base + p];
        i = p;
      }
      this.idx[base + i] = row;
      this.score[base + i] = s;
      return;
    }
    const root = this.score[base];
    if (!(s > root || (root !== root && s === s))) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= k) break;
      let w = l;
      const r = l + 1;
      if (
        r < k &&
        worse(this.idx[base + r], this.score[base + r], this.idx[base + l], this.score[base + l])
      )
        w = r;
      if (!worse(this.idx[base + w], this.score[base + w], row, s)) break;
      this.idx[base + i] = this.idx[base + w];
      this.score[base + i] = this.score[base + w];
      i = w;
    }
    this.idx[base + i] = row;
    this.score[base + i] = s;
  }

  sorted(q: number): ScoredIndex[] {
    const base = q * this.k;
    const out: ScoredIndex[] = [];
    for (let i = 0; i < this.size[q]; i++) {
      out.push({ index: this.idx[base + i], score: this.score[base + i] });
    }
    return out.sort(compareRanked);
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The search was cancelled', 'AbortError');
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
  const heaps = new Heaps(nq, k);
  const sums = new Float64Array(nq);
  const targetScores = new Float64Array(targets ? nq : 0);
  const targetRanks = new Int32Array(targets ? nq : 0);
  const scratch = new Float32Array(Math.min(blockRows, Math.max(count, 1)) * dim);
  const one = new Float32Array(dim);
  const simd = useSimd(options.kernel ?? 'auto', dim)
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
  const total = nq * count;
  const started = now();
  let sliceStart = started;
  let slices = 1;
  let longest = 0;
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
      const t1 = now();
      if (t1 - sliceStart >= sliceMs) {
        longest = Math.max(longest, t1 - sliceStart);
        onProgress?.({ done, total });
        await yieldNow();
        if (signal?.aborted) throw abortError(signal);
        slices++;
        sliceStart = now();
      }
    }
  }
  const end = now();
  longest = Math.max(longest, end - sliceStart);
  onProgress?.({ done: total, total });
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
    stats: { slices, longestSliceMs: longest, elapsedMs: end - started },
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
