// A protocol of 40 one-gold queries over one 10-doc corpus, and retrievers that put the gold at a
// chosen rank per query: the paired statistics' counts are then known by construction.
import { scoreProtocol, type Evaluation } from '../../../src/lib/protocol-kit/evaluate.ts';
import type { ComparedRetriever } from '../../../src/lib/protocol-kit/compare.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

export const DOCS = 10;
export const QUERIES = 40;

export const protocol: Protocol = {
  benchmark: 'fixture',
  notes: [],
  corpora: corpusMap([
    {
      id: 'c',
      docs: Array.from({ length: DOCS }, (_, i) => `doc ${i}`),
      docIds: Array.from({ length: DOCS }, (_, i) => `d${i}`),
    },
  ]),
  queries: Array.from({ length: QUERIES }, (_, i) => ({
    id: `q${i}`,
    series: i < 20 ? 'naive' : 'indirect',
    group: i % 2 === 0 ? 'even' : 'odd',
    text: String(i),
    corpusId: 'c',
    goldIds: [`d${i % DOCS}`],
  })),
  defaultK: 1,
};

/** Scores that put query i's gold doc at 1-based rank `rankOf(i)`. */
export function rankedRetriever(id: string, rankOf: (query: number) => number): Retriever {
  return {
    id,
    label: id,
    prepare: async () => undefined,
    forCorpus: () => (text) => {
      const q = Number(text);
      const gold = q % DOCS;
      const others = Array.from({ length: DOCS }, (_, d) => d).filter((d) => d !== gold);
      const order = [...others];
      order.splice(rankOf(q) - 1, 0, gold);
      const scores = new Float64Array(DOCS);
      order.forEach((d, r) => (scores[d] = 1 - r / DOCS));
      return scores;
    },
  };
}

export function evaluate(id: string, rankOf: (query: number) => number): Evaluation {
  return scoreProtocol(protocol, rankedRetriever(id, rankOf), 10);
}

export function compared(id: string, rankOf: (query: number) => number): ComparedRetriever {
  return { ref: id, label: id.toUpperCase(), evaluation: evaluate(id, rankOf) };
}
