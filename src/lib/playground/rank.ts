// Where each typed memory lands among the background turns. Memories are appended after the
// background (as InMind's protocol appends its target), and ties go to the lower index, so a
// tie never flatters a memory.
import { Bm25Index } from '../analysis/bm25.ts';
import { asciiWordTokens } from '../analysis/tokenize.ts';
import { cosineScoresAll, normalizeRowsInPlace } from '../analysis/cosine.ts';
import { ranksBefore, topKOfScores } from '../analysis/topk.ts';

export interface MemoryRank {
  memory: number;
  score: number;
  /** 1-based, among background and memories together. */
  rank: number;
  /** Background turns that rank above this memory. */
  backgroundAbove: number;
}

export interface RankedDoc {
  index: number;
  score: number;
  /** Index into the memories, or null for a background turn. */
  memory: number | null;
}

export interface Ranking {
  corpusSize: number;
  backgroundSize: number;
  memories: MemoryRank[];
  top: RankedDoc[];
  backgroundScores: number[];
}

export function rankMemories(scores: ArrayLike<number>, backgroundSize: number, topK = 5): Ranking {
  const n = scores.length;
  if (backgroundSize > n) throw new RangeError('background larger than the corpus');
  const memories: MemoryRank[] = [];
  for (let d = backgroundSize; d < n; d++) {
    const me = { index: d, score: scores[d] };
    let above = 0;
    let backgroundAbove = 0;
    for (let j = 0; j < n; j++) {
      if (j !== d && ranksBefore({ index: j, score: scores[j] }, me)) {
        above++;
        if (j < backgroundSize) backgroundAbove++;
      }
    }
    memories.push({
      memory: d - backgroundSize,
      score: scores[d],
      rank: above + 1,
      backgroundAbove,
    });
  }
  return {
    corpusSize: n,
    backgroundSize,
    memories,
    top: topKOfScores(scores, topK).map((s) => ({
      ...s,
      memory: s.index >= backgroundSize ? s.index - backgroundSize : null,
    })),
    backgroundScores: Array.from(scores).slice(0, backgroundSize),
  };
}

/** BM25 (rank_bm25's BM25Okapi) over the background plus the memories; the background is tokenised once. */
export class Bm25Ranker {
  private readonly backgroundTokens: string[][];

  constructor(background: readonly string[]) {
    this.backgroundTokens = background.map(asciiWordTokens);
  }

  get backgroundSize(): number {
    return this.backgroundTokens.length;
  }

  rank(memories: readonly string[], query: string, topK = 5): Ranking {
    const index = new Bm25Index([...this.backgroundTokens, ...memories.map(asciiWordTokens)]);
    return rankMemories(index.scores(asciiWordTokens(query)), this.backgroundSize, topK);
  }
}

/** Cosine of the query against background and memory vectors (rows normalised here). */
export function denseRanking(
  query: Float32Array,
  background: Float32Array,
  memories: Float32Array,
  dim: number,
  topK = 5,
): Ranking {
  const docs = new Float32Array(background.length + memories.length);
  docs.set(background, 0);
  docs.set(memories, background.length);
  normalizeRowsInPlace(docs, dim);
  const q = normalizeRowsInPlace(Float32Array.from(query), dim);
  return rankMemories(cosineScoresAll(q, docs, dim), background.length / dim, topK);
}
