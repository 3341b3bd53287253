// Length-aware batching, the one plan the embed worker and the Node embedder both follow. A batch
// is padded to its longest text, so texts are sorted by token count and a batch takes texts until
// its padded size (rows × longest) would pass the token budget: many short texts share one
// forward pass, long ones run in small batches. Vectors come back in input order.
import type { TokenIds } from './forward.ts';
import type { ModelDtype } from './model-registry.ts';

export interface BatchPlan {
  /** At most this many texts per forward pass. */
  maxBatch: number;
  /** At most this many padded tokens (rows × longest row) per pass; 0: no budget, only maxBatch. */
  tokenBudget: number;
}

/**
 * The site's default, from `npm run bench:embed -- --compare-plans` on MiniLM (docs/performance.md,
 * "Length-aware batching"): 4,096 padded tokens, at most 32 texts (256 gained nothing more in Node
 * and lost in Chromium with two threads).
 */
export const DEFAULT_BATCH_PLAN: BatchPlan = { maxBatch: 32, tokenBudget: 4096 };

/** One text per forward pass: nothing else in the batch (nor its padding) reaches a text's vector. */
export const SOLO_BATCH_PLAN: BatchPlan = { maxBatch: 1, tokenBudget: 0 };

/**
 * The plan for a dtype, page and CLI alike. Quantised graphs quantise activations per tensor (one
 * scale from the whole batch's min and max, padding included), so batched, a q8 vector would
 * depend on its batch-mates, and a cached one on the run that made it: each text runs alone. fp32
 * vectors are the same in any batch.
 */
export function batchPlanFor(dtype: ModelDtype): BatchPlan {
  return dtype === 'fp32' ? DEFAULT_BATCH_PLAN : SOLO_BATCH_PLAN;
}

export function checkBatchPlan(plan: BatchPlan): void {
  if (!Number.isInteger(plan.maxBatch) || plan.maxBatch < 1) {
    throw new RangeError(`maxBatch must be a positive integer, got ${plan.maxBatch}`);
  }
  if (!Number.isInteger(plan.tokenBudget) || plan.tokenBudget < 0) {
    throw new RangeError(`tokenBudget must be 0 or a positive integer, got ${plan.tokenBudget}`);
  }
}

/**
 * Groups text indices into batches: sorted by token length (ties by index, so deterministic),
 * a batch closes when it holds `maxBatch` texts or one more would pad it past `tokenBudget`.
 * A text longer than the budget still runs, alone.
 */
export function planBatches(lengths: readonly number[], plan: BatchPlan): number[][] {
  checkBatchPlan(plan);
  const order = lengths.map((_, index) => index).sort((a, b) => lengths[a] - lengths[b] || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    // Ascending order: the text joining is the batch's longest.
    const padded = (current.length + 1) * lengths[index];
    const full =
      current.length >= plan.maxBatch || (plan.tokenBudget > 0 && padded > plan.tokenBudget);
    if (current.length > 0 && full) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Padded tokens a plan computes (what the budget bounds per batch). */
export function paddedTokens(lengths: readonly number[], batches: readonly number[][]): number {
  return batches.reduce(
    (sum, batch) => sum + batch.length * Math.max(...batch.map((i) => lengths[i])),
    0,
  );
}

export interface BatchedRun {
  /** One forward pass: row-major vectors, one row per text of `batch`, in its order. */
  embed(batch: readonly TokenIds[]): Promise<Float32Array>;
  /** A finished batch: `indices` are input positions, `vectors` their rows in that order. */
  onBatch(indices: number[], vectors: Float32Array): void;
  /** Asked before each batch: true stops the run (cancel). */
  stopped?: () => boolean;
}

/** Runs every batch of the plan; false when `stopped` ended it early. */
export async function embedInBatches(
  ids: readonly TokenIds[],
  plan: BatchPlan,
  run: BatchedRun,
): Promise<boolean> {
  for (const indices of planBatches(
    ids.map((row) => row.length),
    plan,
  )) {
    if (run.stopped?.()) return false;
    run.onBatch(indices, await run.embed(indices.map((i) => ids[i])));
  }
  return true;
}

/** Puts each batch's rows at their texts' input positions in one `[n, dim]` matrix. */
export function inInputOrder(count: number, dim: number) {
  const vectors = new Float32Array(count * dim);
  return {
    vectors,
    place(indices: readonly number[], rows: Float32Array): void {
      if (rows.length !== indices.length * dim) {
        throw new Error(
          `a batch of ${indices.length} returned ${rows.length / indices.length} dims, expected ${dim}`,
        );
      }
      indices.forEach((textIndex, row) => {
        vectors.set(rows.subarray(row * dim, (row + 1) * dim), textIndex * dim);
      });
    },
  };
}
