import { describe, expect, it } from 'vitest';
import { exactRank, evaluateQuery, scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';
import {
  recallCurves,
  recallTable,
  separationTable,
  similarityHistogram,
} from '../../../src/lib/protocol-kit/summary.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

describe('exactRank', () => {
  it('counts higher scores and equal scores at lower indices', () => {
    const scores = Float64Array.from([0.5, 0.9, 0.5, 0.1]);
    expect(exactRank(scores, 1)).toBe(1);
    expect(exactRank(scores, 0)).toBe(2);
    expect(exactRank(scores, 2)).toBe(3);
    expect(exactRank(scores, 3)).toBe(4);
  });

  it('puts NaN after every number', () => {
    const scores = Float64Array.from([NaN, 0.1, NaN]);
    expect(exactRank(scores, 1)).toBe(1);
    expect(exactRank(scores, 0)).toBe(2);
    expect(exactRank(scores, 2)).toBe(3);
  });
});

const protocol: Protocol = {
  benchmark: 'locomo',
  notes: [],
  corpora: corpusMap([{ id: 'c', docs: ['a', 'b', 'c', 'd'], docIds: ['a', 'b', 'c', 'd'] }]),
  queries: [
    { id: 'q1', series: 's', group: 'g1', text: 'x', corpusId: 'c', goldIds: ['c'] },
    { id: 'q2', series: 's', group: 'g2', text: 'y', corpusId: 'c', goldIds: ['a', 'd'] },
    { id: 'q3', series: 's', group: 'g2', text: 'z', corpusId: 'c', goldIds: [] },
  ],
  defaultK: 1,
};

/** Scores: doc a 0.4, b 0.3, c 0.2, d 0.1 for every query. */
const retriever: Retriever = {
  id: 'fixed',
  label: 'fixed',
  prepare: async () => undefined,
  forCorpus: () => () => Float64Array.from([0.4, 0.3, 0.2, 0.1]),
};

describe('evaluation of a protocol', () => {
  const evaluation = scoreProtocol(protocol, retriever, 3);

  it('ranks targets exactly and records gold ranks only up to kMax', () => {
    const [q1, q2] = evaluation.outcomes;
    expect(q1.targetRank).toBe(3);
    expect(q1.goldRanks).toEqual([3]);
    expect(q2.targetRank).toBe(1);
    expect(q2.goldRanks).toEqual([1, null]);
    expect(q2.top.map((t) => t.index)).toEqual([0, 1, 2]);
  });

  it('splits target from background scores per query', () => {
    expect(Array.from(evaluation.background.get('s') ?? [])).toEqual([0.4, 0.3, 0.1, 0.3, 0.2]);
    const [row] = separationTable(evaluation);
    expect(row.stats.target.n).toBe(3);
    expect(row.stats.background.n).toBe(5);
  });

  it('averages per-query recall over scorable queries and counts the skipped one', () => {
    expect(evaluation.skipped.get('s')).toBe(1);
    const at1 = recallTable(evaluation, 1);
    expect(at1.map((c) => [c.group, c.recall, c.hits, c.queries])).toEqual([
      [null, 0.25, 0.5, 2],
      ['g1', 0, 0, 1],
      ['g2', 0.5, 0.5, 1],
    ]);
    const at3 = recallTable(evaluation, 3).find((c) => c.group === null);
    expect(at3?.recall).toBe(0.75);
    expect(() => recallTable(evaluation, 4)).toThrow(RangeError);
  });

  it('draws curves that agree with the table at every k', () => {
    const curve = recallCurves(evaluation);
    expect(curve.map((p) => p.recall)).toEqual([0.25, 0.25, 0.75]);
  });

  it('bins both populations on one range, each integrating to 1', () => {
    const bins = similarityHistogram(evaluation, 3);
    for (const population of ['target', 'background'] as const) {
      const mine = bins.filter((b) => b.population === population);
      const area = mine.reduce((s, b) => s + b.density * (b.end - b.start), 0);
      expect(area).toBeCloseTo(1, 12);
      expect(mine[0].start).toBe(0.1);
      expect(mine[2].end).toBe(0.4);
    }
  });

  it('credits by id unless the corpus says otherwise', () => {
    const corpus = { id: 'c', docs: ['x', 'y'], docIds: ['x', 'y'], credits: () => true };
    const outcome = evaluateQuery(
      { id: 'q', series: 's', group: 'g', text: 't', corpusId: 'c', goldIds: ['zzz'] },
      corpus,
      Float64Array.from([1, 0]),
      2,
    );
    expect(outcome.goldRanks).toEqual([1]);
    expect(outcome.targetRank).toBeNull();
  });
});
