import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSiteCatalog } from '../../../scripts/reproduce.ts';
import type { Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { UnitVectors } from '../../../src/lib/embed/unit-vectors.ts';
import { createNodeEmbedder, type NodeEmbedder } from '../../../src/lib/embed/node-embedder.ts';
import { loadLocomoPlusRelease } from '../../../src/lib/protocol-kit/inputs.ts';
import {
  bm25Note,
  compareRelease,
  cosine,
  recomputeRelease,
  type ReleasePair,
} from '../../../src/lib/protocol-kit/locomo-plus-release.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const site = path.join(root, 'public');
const hasData = existsSync(path.join(site, 'data/locomo-plus/locomo_plus.json'));

const pair = (i: number, released: number | null, rank: number | null = 10): ReleasePair => ({
  item_id: `lp-${i}`,
  item_index: i,
  relation_type: 'causal',
  cue_dialogue: `A: cue ${i}\nB: reply ${i}`,
  trigger_query: `A: trigger ${i}`,
  released,
  releasedBm25Rank: rank,
});

describe('release comparison', () => {
  it('computes cosine without assuming unit vectors', () => {
    expect(cosine(Float32Array.from([3, 4]), Float32Array.from([6, 8]))).toBeCloseTo(1, 12);
    expect(cosine(Float32Array.from([1, 0]), Float32Array.from([0, 2]))).toBe(0);
    expect(cosine(Float32Array.from([0, 0]), Float32Array.from([1, 0]))).toBe(0);
  });

  it('reports the largest and mean |deviation| and skips items without a released score', () => {
    const r = compareRelease([pair(0, 0.5), pair(1, 0.25), pair(2, null)], [0.5001, 0.2497, 0.9], {
      id: 'bge-small',
      label: 'bge-small-en-v1.5',
      dtype: 'fp32',
    });
    expect(r.compared).toBe(2);
    expect(r.maxAbsDeviation).toBeCloseTo(3e-4, 12);
    expect(r.meanAbsDeviation).toBeCloseTo(2e-4, 12);
    expect(r.worstItem).toBe('lp-1');
    expect(r.rows[2].deviation).toBeNull();
    expect(r).toMatchObject({ comparability: 'exact', differs: '' });
  });

  it('is exact only for bge-small fp32', () => {
    const model = (id: string, dtype: string) => ({ id, label: id, dtype });
    const pairs = [pair(0, 0.5)];
    expect(compareRelease(pairs, [0.5], model('bge-small', 'q8'))).toMatchObject({
      comparability: 'other scope',
      differs: 'q8 weights, not fp32',
    });
    expect(compareRelease(pairs, [0.5], model('tiny-bert', 'fp32'))).toMatchObject({
      comparability: 'other scope',
      differs: "model tiny-bert, not bge-small-en-v1.5 (MemLens's own)",
    });
  });

  it('says why scores.bm25 cannot be recomputed, citing the largest released rank', () => {
    expect(bm25Note([pair(0, 0.5, 33), pair(1, 0.5, 3101), pair(2, 0.5, null)])).toContain(
      'its ranks.bm25 go up to 3101',
    );
  });

  it('embeds both texts whole, as documents, once per text', async () => {
    const seen: { texts: readonly string[]; kind: string }[] = [];
    const embedder: Embedder = {
      spec: getModelSpec('tiny-bert'),
      backend: 'node',
      async embed(texts, { kind }) {
        seen.push({ texts, kind });
        const vectors = new Float32Array(texts.length * 2);
        texts.forEach((t, i) => vectors.set([t.length, t.startsWith('A: trigger') ? 1 : 0], i * 2));
        return { dim: 2, count: texts.length, vectors };
      },
      dispose: async () => undefined,
    };
    const vectors = new UnitVectors();
    const pairs = [pair(0, 0.5), pair(1, 0.5)];
    const first = await recomputeRelease(pairs, embedder, vectors);
    const again = await recomputeRelease(pairs, embedder, vectors);
    expect(seen).toHaveLength(1);
    expect(seen[0].kind).toBe('document');
    expect(seen[0].texts).toEqual([
      'A: cue 0\nB: reply 0',
      'A: trigger 0',
      'A: cue 1\nB: reply 1',
      'A: trigger 1',
    ]);
    const expected = cosine(Float32Array.from([19, 0]), Float32Array.from([12, 1]));
    expect(first.rows[0].recomputed).toBeCloseTo(expected, 6);
    expect(again.rows).toEqual(first.rows);
  });
});

describe.skipIf(!hasData)('release mode on the 401 released records (tiny-bert)', () => {
  let pairs: ReleasePair[];
  let node: NodeEmbedder;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openSiteCatalog(site);
    close = opened.close;
    pairs = await loadLocomoPlusRelease(opened.catalog);
    node = await createNodeEmbedder({ model: parseModelRef('tiny-bert') });
  }, 120_000);

  afterAll(async () => {
    await node?.dispose();
    await close?.();
  });

  it('reads every record with its released scores.bge', () => {
    expect(pairs).toHaveLength(401);
    expect(pairs.every((p) => p.released !== null)).toBe(true);
    expect(pairs[0]).toMatchObject({
      item_id: 'lp-0',
      relation_type: 'causal',
      released: 0.5711981058120728,
      trigger_query:
        "A: I ended up volunteering for that project, and now I'm totally overwhelmed.",
    });
    expect(pairs[0].cue_dialogue.split('\n')).toHaveLength(2);
    expect(bm25Note(pairs)).toContain('up to 3101');
  });

  it('recomputes all 401 with the model given, and says it is not the release’s model', async () => {
    const embedder: Embedder = {
      spec: node.spec,
      backend: 'node',
      async embed(texts, { kind }) {
        const { dim, vectors } = await node.embed(texts, { kind });
        return { dim, count: texts.length, vectors };
      },
      dispose: async () => undefined,
    };
    const r = await recomputeRelease(pairs, embedder, new UnitVectors());
    expect(r.rows).toHaveLength(401);
    expect(r.compared).toBe(401);
    expect(r.comparability).toBe('other scope');
    // Independent path: embed item 0's texts directly and take the cosine.
    const { dim, vectors } = await node.embed([pairs[0].cue_dialogue, pairs[0].trigger_query], {
      kind: 'document',
    });
    const direct = cosine(vectors.subarray(0, dim), vectors.subarray(dim, 2 * dim));
    expect(r.rows[0].recomputed).toBeCloseTo(direct, 6);
    console.log(
      `tiny-bert vs released scores.bge: max |dev| ${r.maxAbsDeviation?.toFixed(4)} (${r.worstItem}), ` +
        `mean ${r.meanAbsDeviation?.toFixed(4)} over ${r.compared}`,
    );
    // The same machinery with the release's own numbers reads as an exact match.
    const self = compareRelease(
      pairs,
      pairs.map((p) => p.released ?? 0),
      { id: 'bge-small', label: 'bge-small-en-v1.5', dtype: 'fp32' },
    );
    expect(self).toMatchObject({ maxAbsDeviation: 0, comparability: 'exact' });
  }, 120_000);
});
