import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../../src/lib/analysis/bm25.ts';
import { asciiWordTokens } from '../../../../src/lib/analysis/tokenize.ts';
import type { Embedder } from '../../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../../src/lib/embed/model-registry.ts';
import { bm25Retriever } from '../../../../src/lib/protocol-kit/bm25-retriever.ts';
import { denseRetriever } from '../../../../src/lib/protocol-kit/dense-retriever.ts';
import {
  playgroundProtocol,
  rankMemories,
  rankWith,
} from '../../../../src/features/playground/core/rank.ts';
import { inmindCasesFromRows } from '../../../../src/features/playground/core/sql.ts';
import { queryOf } from '../../../../src/features/playground/core/cases.ts';
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

describe('playgroundProtocol', () => {
  it('is one corpus, background then memories, with the background shared', () => {
    const p = playgroundProtocol(['a', 'b'], ['m'], 'q');
    const corpus = [...p.corpora.values()];
    expect(corpus).toHaveLength(1);
    expect(corpus[0].docs).toEqual(['a', 'b', 'm']);
    expect(corpus[0].shared).toEqual({ id: 'background:2', size: 2 });
    expect(p.queries.map((q) => [q.text, q.corpusId])).toEqual([['q', corpus[0].id]]);
  });
});

describe('BM25 over the 486 LME-s background turns (the blind spot, measured)', () => {
  const bg = background();
  const bm25 = bm25Retriever();
  const rank = (memories: string[], query: string) => rankWith(bm25, bg, memories, query);
  const cases = inmindCasesFromRows(tasks());
  const treeNut = cases.find((c) => c.id === 'tree-nut')!;

  it('uses all 486 turns', async () => {
    expect(bg).toHaveLength(486);
    expect((await rank(['x'], 'y')).corpusSize).toBe(487);
  });

  it('finds the allergy when asked for it, and loses it when it is only needed', async () => {
    const naive = await rank(treeNut.memories, queryOf(treeNut, 'naive').text);
    const indirect = await rank(treeNut.memories, queryOf(treeNut, 'indirect').text);
    expect(naive.memories[0].rank).toBeLessThanOrEqual(5);
    expect(indirect.memories[0].rank).toBeGreaterThan(300);
    expect(indirect.memories[1].score).toBe(0);
  });

  it("puts a direct LoCoMo question's evidence first", async () => {
    const r = await rank(
      ['I went to a LGBTQ support group yesterday and it was so powerful.'],
      'When did Caroline go to the LGBTQ support group?',
    );
    expect(r.memories[0].rank).toBe(1);
    expect(r.top[0].memory).toBe(0);
  });

  it('matches a fresh BM25 index over the same corpus, run after run', async () => {
    const memories = ['tree nut allergy', 'almond flour'];
    const index = new Bm25Index([...bg, ...memories].map(asciiWordTokens));
    const fresh = rankMemories(index.scores(asciiWordTokens('almond allergy')), bg.length);
    await rank(['something else'], 'a query');
    expect(await rank(memories, 'almond allergy')).toEqual(fresh);
  });
});

describe('rankWith a dense retriever', () => {
  it('ranks by cosine of unit vectors', async () => {
    const table: Record<string, number[]> = {
      a: [1, 0],
      b: [0, 2],
      c: [3, 3],
      m: [0, 5],
      q: [0, 1],
    };
    const embedder: Embedder = {
      spec: getModelSpec('tiny-bert'),
      backend: 'node',
      async embed(texts) {
        return {
          dim: 2,
          count: texts.length,
          vectors: Float32Array.from(texts.flatMap((t) => table[t])),
        };
      },
      dispose: async () => undefined,
    };
    const r = await rankWith(
      denseRetriever(embedder, { queryPrefix: true }),
      ['a', 'b', 'c'],
      ['m'],
      'q',
    );
    expect(r.backgroundSize).toBe(3);
    expect(r.memories[0].rank).toBe(2);
    expect(r.memories[0].score).toBeCloseTo(1, 6);
    expect(r.top[0]).toMatchObject({ index: 1, memory: null });
  });
});
