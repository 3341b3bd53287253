// The integer screen: every query × row scored in int16 (int16-dot, about 4× the float32 kernel),
// with a bound on each approximate score's error, so that only rows that could still reach a
// query's top-k or overtake its target are rescored with the float32 kernel. The results (top-k,
// ranks, scores) are exactly those of the float32 kernel's full search.
import { decodeRows, type DenseMatrix } from './dense-matrix.ts';
import { Int16GroupScorer, GROUP } from './int16-dot.ts';
import { quantizeBlock, quantizeQueries } from './int16-quantize.ts';
import type { SearchResult } from './search-result.ts';
import { SliceClock, type SliceOptions } from './search-slices.ts';
import { SimdScorer } from './simd-dot.ts';
import { Heaps, worse } from './topk-heaps.ts';

export interface ScreenParams {
  k: number;
  targets: Int32Array | null;
  blockRows: number;
  slices: SliceOptions;
}

/** Rows kept for rescoring, in ascending order, each with the upper bound of its score. */
class RowList {
  rows = new Int32Array(64);
  upper = new Float64Array(64);
  length = 0;
  cap = 256;

  push(row: number, upper: number): void {
    if (this.length === this.rows.length) {
      const rows = new Int32Array(this.length * 2);
      rows.set(this.rows);
      this.rows = rows;
      const up = new Float64Array(this.length * 2);
      up.set(this.upper);
      this.upper = up;
    }
    this.rows[this.length] = row;
    this.upper[this.length++] = upper;
  }

  /** Drops rows whose bound is below `tau`; keeps the order. */
  prune(tau: number): void {
    let n = 0;
    for (let i = 0; i < this.length; i++) {
      if (this.upper[i] >= tau) {
        this.rows[n] = this.rows[i];
        this.upper[n++] = this.upper[i];
      }
    }
    this.length = n;
    this.cap = Math.max(this.cap, 2 * n);
  }
}

/**
 * The float32 kernel's score of query q with each listed row whose bound reaches `tau`, in row
 * order, gathered a block at a time into the kernel's memory. Returns how many it scored.
 */
function rescore(
  simd: SimdScorer,
  q: number,
  list: RowList,
  tau: number,
  matrix: DenseMatrix,
  blockRows: number,
  visit: (row: number, score: number) => void,
): number {
  const { dim } = matrix;
  const one = new Float32Array(dim);
  const picked: number[] = [];
  let scored = 0;
  const flush = () => {
    simd.score(q, picked.length);
    picked.forEach((row, i) => visit(row, simd.out[i]));
    scored += picked.length;
    picked.length = 0;
  };
  for (let i = 0; i < list.length; i++) {
    if (!(list.upper[i] >= tau)) continue;
    const row = list.rows[i];
    simd.rows.set(decodeRows(matrix, row, row + 1, one), picked.length * dim);
    picked.push(row);
    if (picked.length === blockRows) flush();
  }
  if (picked.length) flush();
  return scored;
}

/** Float32 rounding of the kernel's sums: |fl(q·r) − q·r| ≤ 2·dim·2⁻²⁴·‖q‖₁·max|r_i|. */
const F32_SLACK = 2 * 2 ** -24;

const INT32_MAX = 2 ** 31 - 1;

/**
 * The smallest integer sum whose score (sum × unit) plus its error bound can reach `cut` (= cut −
 * error here), one lower for rounding; flagged rows are checked again in float64.
 */
function sumThreshold(scoreCut: number, unit: number): number {
  if (scoreCut === -Infinity) return -INT32_MAX - 1;
  if (unit === 0) return scoreCut <= 0 ? -INT32_MAX - 1 : INT32_MAX;
  const x = Math.floor(scoreCut / unit) - 1;
  return Math.max(-INT32_MAX - 1, Math.min(INT32_MAX, x));
}

export async function screenedSearch(
  queries: Float32Array,
  matrix: DenseMatrix,
  params: ScreenParams,
): Promise<SearchResult> {
  const { dim, count } = matrix;
  const { k, targets, blockRows } = params;
  const nq = queries.length / dim;
  const qq = quantizeQueries(queries, dim);
  if (!qq.finite) throw new RangeError('the integer screen needs finite queries');
  const block = Math.min(blockRows, Math.max(count, 1));
  const int16 = new Int16GroupScorer(qq.values, nq, dim, block);
  const simd = new SimdScorer(queries, dim, block);
  const scratch = new Float32Array(block * dim);
  const one = new Float32Array(dim);
  const targetScores = new Float64Array(targets ? nq : 0);
  const targetRanks = new Int32Array(targets ? nq : 0);
  if (targets) {
    for (let q = 0; q < nq; q++) {
      const t = targets[q];
      if (!(t >= 0 && t < count)) throw new RangeError(`target ${t} is not a row`);
      simd.load(decodeRows(matrix, t, t + 1, one));
      simd.score(q, 1);
      targetScores[q] = simd.out[0];
    }
  }
  const bounds = new Heaps(nq, k);
  const candidates = Array.from({ length: nq }, () => new RowList());
  const ambiguous = Array.from({ length: nq }, () => new RowList());
  const colSum = new Float64Array(dim);
  const { out, flags } = int16;
  const unit = new Float64Array(GROUP);
  const err = new Float64Array(GROUP);
  const tau = new Float64Array(GROUP);
  const targetScore = new Float64Array(GROUP);
  const target = new Int32Array(GROUP);
  const ahead = new Int32Array(GROUP);
  const clock = new SliceClock(params.slices, nq * count);
  const tauOf = (q: number) =>
    k === 0 ? Infinity : bounds.size[q] === k ? bounds.score[q * k] : -Infinity;
  let done = 0;
  for (let r0 = 0; r0 < count; r0 += block) {
    const r1 = Math.min(count, r0 + block);
    const n = r1 - r0;
    const rows = decodeRows(matrix, r0, r1, scratch);
    for (let r = 0; r < n; r++) {
      for (let i = 0; i < dim; i++) colSum[i] += rows[r * dim + i];
    }
    const bq = quantizeBlock(rows, n, dim, int16.rows);
    if (!bq.finite) {
      // NaN or ±Infinity: no bound, so every row of the block is rescored.
      for (let q = 0; q < nq; q++) {
        for (let row = r0; row < r1; row++) {
          candidates[q].push(row, Infinity);
          if (targets && row !== targets[q]) ambiguous[q].push(row, Infinity);
        }
      }
      done += n * nq;
      continue;
    }
    for (let g = 0; g < int16.groups; g++) {
      const first = g * GROUP;
      const m = Math.min(nq, first + GROUP) - first;
      for (let j = 0; j < GROUP; j++) {
        if (j >= m) {
          int16.thresholds[j] = INT32_MAX;
          continue;
        }
        const q = first + j;
        unit[j] = qq.scale[q] * bq.scale;
        err[j] =
          bq.residual * qq.roundedL1[q] +
          qq.residual[q] * bq.maxL1 +
          F32_SLACK * dim * qq.l1[q] * bq.maxAbs;
        target[j] = targets ? targets[q] : -1;
        // A NaN target ranks after every number: the screen then counts every finite row ahead.
        const ts = targets ? targetScores[q] : Infinity;
        targetScore[j] = ts !== ts ? -Infinity : ts;
        tau[j] = tauOf(q);
        ahead[j] = 0;
        int16.thresholds[j] = sumThreshold(Math.min(tau[j], targetScore[j]) - err[j], unit[j]);
      }
      int16.score(g, n);
      for (let r = 0; r < n; r++) {
        if (!flags[r]) continue;
        const row = r0 + r;
        for (let j = 0; j < m; j++) {
          const a = out[r * GROUP + j] * unit[j];
          const upper = a + err[j];
          const ts = targetScore[j];
          if (upper >= tau[j]) {
            const q = first + j;
            bounds.offer(q, row, a - err[j]);
            candidates[q].push(row, upper);
            tau[j] = tauOf(q);
          }
          if (upper >= ts && row !== target[j]) {
            if (a - err[j] > ts) ahead[j]++;
            else ambiguous[first + j].push(row, upper);
          }
        }
      }
      for (let j = 0; j < m; j++) {
        const q = first + j;
        if (targets) targetRanks[q] += ahead[j];
        if (candidates[q].length > candidates[q].cap) candidates[q].prune(tau[j]);
      }
      done += n * m;
      const pause = clock.check(done);
      if (pause) await pause;
    }
  }
  const exact = new Heaps(nq, k);
  let rescored = 0;
  for (let q = 0; q < nq; q++) {
    rescored += rescore(simd, q, candidates[q], tauOf(q), matrix, block, (row, s) =>
      exact.offer(q, row, s),
    );
    if (targets) {
      const t = targets[q];
      const ts = targetScores[q];
      rescored += rescore(simd, q, ambiguous[q], -Infinity, matrix, block, (row, s) => {
        if (!worse(row, s, t, ts)) targetRanks[q]++;
      });
    }
    const pause = clock.check(done);
    if (pause) await pause;
  }
  const stats = { ...clock.finish(), rescored };
  const indices = new Int32Array(nq * k);
  const scores = new Float64Array(nq * k);
  const meanScores = new Float64Array(nq);
  for (let q = 0; q < nq; q++) {
    exact.sorted(q).forEach((s, i) => {
      indices[q * k + i] = s.index;
      scores[q * k + i] = s.score;
    });
    let dot = 0;
    for (let i = 0; i < dim; i++) dot += queries[q * dim + i] * colSum[i];
    meanScores[q] = count ? dot / count : 0;
  }
  return { k, queries: nq, indices, scores, targetRanks, targetScores, meanScores, stats };
}
