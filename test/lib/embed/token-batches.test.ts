import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEmbedder, type NodeEmbedder } from '../../../src/lib/embed/node-embedder.ts';
import {
  embedInBatches,
  inInputOrder,
  paddedTokens,
  planBatches,
} from '../../../src/lib/embed/token-batches.ts';
import type { TokenIds } from '../../../src/lib/embed/forward.ts';
import { parityTexts } from './reference-vectors.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';

describe('planBatches', () => {
  it('without a budget: batches of maxBatch, shortest first, ties by index', () => {
    expect(planBatches([5, 2, 9, 2, 7], { maxBatch: 2, tokenBudget: 0 })).toEqual([
      [1, 3],
      [0, 4],
      [2],
    ]);
  });

  it('closes a batch before its padded size passes the budget', () => {
    // Sorted: 2,2,3,3,8,9. With budget 8: [2,2,3 → 3×3=9 > 8] → [2,2], [3,3], [8], [9].
    const lengths = [8, 2, 3, 9, 2, 3];
    const batches = planBatches(lengths, { maxBatch: 10, tokenBudget: 8 });
    expect(batches).toEqual([[1, 4], [2, 5], [0], [3]]);
    expect(paddedTokens(lengths, batches)).toBe(4 + 6 + 8 + 9);
  });

  it('runs a text longer than the budget alone, and keeps maxBatch', () => {
    expect(planBatches([50, 1, 1, 1], { maxBatch: 2, tokenBudget: 10 })).toEqual([
      [1, 2],
      [3],
      [0],
    ]);
  });

  it('puts every index in exactly one batch', () => {
    const lengths = Array.from({ length: 200 }, (_, i) => ((i * 37) % 120) + 3);
    const batches = planBatches(lengths, { maxBatch: 64, tokenBudget: 1000 });
    expect(
      batches
        .flat()
        .slice()
        .sort((a, b) => a - b),
    ).toEqual(lengths.map((_, i) => i));
    for (const b of batches) {
      expect(b.length * Math.max(...b.map((i) => lengths[i]))).toBeLessThanOrEqual(1000);
    }
  });

  it('handles no texts and rejects bad plans', () => {
    expect(planBatches([], { maxBatch: 4, tokenBudget: 100 })).toEqual([]);
    expect(() => planBatches([1], { maxBatch: 0, tokenBudget: 0 })).toThrow(RangeError);
    expect(() => planBatches([1], { maxBatch: 1, tokenBudget: -1 })).toThrow(RangeError);
    expect(() => planBatches([1], { maxBatch: 1.5, tokenBudget: 0 })).toThrow(RangeError);
  });
});

describe('embedInBatches', () => {
  // A row depends on its ids only, so any plan must give the same matrix.
  const rowOf = (ids: TokenIds) => [ids.length, ids[0] ?? 0];
  const ids: TokenIds[] = [[3, 1, 4], [1], [5, 9], [2, 6, 5, 3], [5]];

  async function run(maxBatch: number, tokenBudget: number): Promise<Float32Array> {
    const out = inInputOrder(ids.length, 2);
    await embedInBatches(
      ids,
      { maxBatch, tokenBudget },
      {
        embed: async (batch) => Float32Array.from(batch.flatMap(rowOf)),
        onBatch: out.place,
      },
    );
    return out.vectors;
  }

  it('returns rows in input order whatever the plan', async () => {
    const expected = Float32Array.from(ids.flatMap(rowOf));
    expect(await run(1, 0)).toEqual(expected);
    expect(await run(3, 0)).toEqual(expected);
    expect(await run(100, 4)).toEqual(expected);
  });

  it('stops before the next batch when asked', async () => {
    const seen: number[][] = [];
    const finished = await embedInBatches(
      ids,
      { maxBatch: 2, tokenBudget: 0 },
      {
        embed: async (batch) => new Float32Array(batch.length),
        onBatch: (indices) => seen.push(indices),
        stopped: () => seen.length === 1,
      },
    );
    expect(finished).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('names a batch that returned the wrong width', () => {
    const out = inInputOrder(2, 3);
    expect(() => out.place([0, 1], new Float32Array(4))).toThrow(/returned 2 dims, expected 3/);
  });
});

describe('token-budget batching on a real model (tiny-bert, onnxruntime-node)', () => {
  let oneByOne: NodeEmbedder;
  let budgeted: NodeEmbedder;
  let fixed: NodeEmbedder;
  beforeAll(async () => {
    const model = parseModelRef('tiny-bert');
    oneByOne = await createNodeEmbedder({ model, maxBatch: 1, tokenBudget: 0 });
    budgeted = await createNodeEmbedder({ model, maxBatch: 256, tokenBudget: 512 });
    fixed = await createNodeEmbedder({ model, maxBatch: 32, tokenBudget: 0 });
  });
  afterAll(async () => {
    await Promise.all([oneByOne, budgeted, fixed].map((e) => e?.dispose()));
  });

  it('gives the vectors of each text embedded alone, bit for bit, in input order', async () => {
    const texts = await parityTexts();
    const alone = await oneByOne.embed(texts, { kind: 'document' });
    const byBudget = await budgeted.embed(texts, { kind: 'document' });
    const byCount = await fixed.embed(texts, { kind: 'document' });
    expect(new Uint32Array(byBudget.vectors.buffer)).toEqual(new Uint32Array(alone.vectors.buffer));
    expect(new Uint32Array(byCount.vectors.buffer)).toEqual(new Uint32Array(alone.vectors.buffer));
  });
});
