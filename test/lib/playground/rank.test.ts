import { describe, expect, it } from 'vitest';
import { Bm25Ranker, denseRanking, rankMemories } from '../../../src/lib/playground/rank.ts';
import { inmindCasesFromRows } from '../../../src/lib/playground/sql.ts';
import { queryOf } from '../../../src/lib/playground/cases.ts';
import type { SqlRow } from '../../../src/lib/db/engine.ts';
import { background, tasks } from './fixtures.ts';

describe('rankMemories', () => {
  it('ranks memories among background and memories, ties against the memory', () => {
    const r = rankMemories([0.9, 0.5, 0.5, 0.1, 0.5, 0.95], 4, 3);
    expect(r.corpusSize).toBe(6);
    expect(r.memories).toEqual([
      { memory: 0, score: 0.5, rank: 5, backgroundAbove: 3 },
      { memory: 1, score: 0.95, rank: 1, backgroundAbove: 0 },
    ]);
    expect(r.top).toEqual([
      { index: 5, score: 0.95, memory: 1 },
      { index: 0, score: 0.9, memory: null },
      { index: 1, score: 0.5, memory: null },
    ]);
    expect(r.backgroundScores).toEqual([0.9, 0.5, 0.5, 0.1]);
  });

  it('ranks NaN last and rejects a background larger than the corpus', () => {
    expect(rankMemories([1, Number.NaN], 1).memories[0].rank).toBe(2);
    expect(() => rankMemories([1], 2)).toThrow(RangeError);
  });
});

describe('BM25 over the 486 LME-s background turns (the blind spot, measured)', () => {
  const bg = background();
  const ranker = new Bm25Ranker(bg);
  const cases = inmindCasesFromRows(tasks() as unknown as SqlRow[]);
  const treeNut = cases.find((c) => c.id === 'tree-nut')!;

  it('uses all 486 turns', () => {
    expect(ranker.backgroundSize).toBe(486);
    expect(ranker.rank(['x'], 'y').corpusSize).toBe(487);
  });

  it('finds the allergy when asked for it, and loses it when it is only needed', () => {
    const naive = ranker.rank(treeNut.memories, queryOf(treeNut, 'naive').text);
    const indirect = ranker.rank(treeNut.memories, queryOf(treeNut, 'indirect').text);
    expect(naive.memories[0].rank).toBeLessThanOrEqual(5);
    expect(indirect.memories[0].rank).toBeGreaterThan(300);
    expect(indirect.memories[1].score).toBe(0);
  });

  it("puts a direct LoCoMo question's evidence first", () => {
    const r = ranker.rank(
      ['I went to a LGBTQ support group yesterday and it was so powerful.'],
      'When did Caroline go to the LGBTQ support group?',
    );
    expect(r.memories[0].rank).toBe(1);
    expect(r.top[0].memory).toBe(0);
  });

  it('matches a fresh BM25 index over the same corpus', () => {
    const a = ranker.rank(['tree nut allergy', 'almond flour'], 'almond allergy');
    const b = new Bm25Ranker(bg).rank(['tree nut allergy', 'almond flour'], 'almond allergy');
    expect(a).toEqual(b);
  });
});

describe('denseRanking', () => {
  it('normalises rows and ranks by cosine', () => {
    const bg = Float32Array.from([1, 0, 0, 2, 3, 3]);
    const mem = Float32Array.from([0, 5]);
    const r = denseRanking(Float32Array.from([0, 1]), bg, mem, 2);
    expect(r.backgroundSize).toBe(3);
    expect(r.memories[0].rank).toBe(2);
    expect(r.memories[0].score).toBeCloseTo(1, 6);
    expect(r.top[0]).toMatchObject({ index: 1, memory: null });
  });
});
