// Where each typed memory lands among the background turns. Memories are appended after the
// background (as InMind's protocol appends its target), and ties go to the lower index, so a
// tie never flatters a memory.
import { ranksBefore, topKOfScores, type ScoredIndex } from '../../../lib/analysis/topk.ts';
import type { PrepareOptions, Retriever } from '../../../lib/protocol-kit/retriever.ts';
import type { Corpus, Protocol } from '../../../lib/protocol-kit/types.ts';

export interface MemoryRank {
  memory: number;
  score: number;
  /** 1-based, among background and memories together. */
  rank: number;
  /** Background turns that rank above this memory. */
  backgroundAbove: number;
}

/** A document of the top list; `memory` indexes the memories, null for a background turn. */
export interface TopDoc extends ScoredIndex {
  memory: number | null;
}

export interface Ranking {
  corpusSize: number;
  backgroundSize: number;
  memories: MemoryRank[];
  top: TopDoc[];
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

export const PLAYGROUND_CORPUS = 'playground';

/**
 * The playground's question as a protocol, so it ranks through the protocols' retrievers: one
 * corpus (the background, then the memories; the background is shared from one run to the
 * next, so BM25 indexes it once) and one query.
 */
export function playgroundProtocol(
  background: readonly string[],
  memories: readonly string[],
  query: string,
): Protocol {
  const docs = [...background, ...memories];
  const corpus: Corpus = {
    id: PLAYGROUND_CORPUS,
    docs,
    docIds: docs.map((_, i) => String(i)),
    shared: { id: `background:${background.length}`, size: background.length },
  };
  return {
    // The background is InMind's (the LME-s turns); nothing here reads the benchmark.
    benchmark: 'inmind',
    notes: [],
    corpora: new Map([[corpus.id, corpus]]),
    queries: [
      { id: 'q', series: 'playground', group: null, text: query, corpusId: corpus.id, goldIds: [] },
    ],
    defaultK: 5,
  };
}

/** Where each memory lands under `retriever` (BM25 or dense, as in the protocols). */
export async function rankWith(
  retriever: Retriever,
  background: readonly string[],
  memories: readonly string[],
  query: string,
  options: PrepareOptions & { topK?: number } = {},
): Promise<Ranking> {
  const protocol = playgroundProtocol(background, memories, query);
  await retriever.prepare(protocol, options);
  const corpus = protocol.corpora.get(PLAYGROUND_CORPUS);
  if (!corpus) throw new Error('the playground protocol has no corpus');
  const scores = retriever.forCorpus(corpus)(query);
  return rankMemories(scores, background.length, options.topK);
}
