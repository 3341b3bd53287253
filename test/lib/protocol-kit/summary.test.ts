// Query groups are data: a group named "all", "__proto__", "constructor", the empty string, a very
// long name, or shared by many queries is one group row like any other, never the series' own
// row, and every row keeps a key of its own (the page's keyed lists, the comparison's families).
import { describe, expect, it } from 'vitest';
import { scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';
import { compareRetrievers } from '../../../src/lib/protocol-kit/compare.ts';
import { comparisonCsvRows } from '../../../src/lib/protocol-kit/compare-report.ts';
import { formatPercentInterval, summaryLines } from '../../../src/lib/protocol-kit/report.ts';
import { wilson } from '../../../src/lib/analysis/intervals.ts';
import {
  groupsOf,
  isWholeSeries,
  levelOf,
  recallInterval,
  recallTable,
  seriesGroupKey,
} from '../../../src/lib/protocol-kit/summary.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

const LONG = 'x'.repeat(10_000);
const GROUPS: (string | null)[] = [
  'all',
  'all',
  '__proto__',
  'constructor',
  '',
  'toString',
  LONG,
  null,
];

const protocol: Protocol = {
  benchmark: 'yours',
  notes: [],
  corpora: corpusMap([{ id: 'c', docs: ['a', 'b', 'c'], docIds: ['a', 'b', 'c'] }]),
  queries: GROUPS.map((group, i) => ({
    id: `q${i}`,
    series: 'query',
    group,
    text: `t${i}`,
    corpusId: 'c',
    // Even queries find their gold first, odd ones third.
    goldIds: [i % 2 === 0 ? 'a' : 'c'],
  })),
  defaultK: 1,
};

/** Scores: doc a 0.9, b 0.5, c 0.1 for every query. */
const fixed = (id: string, scores: number[]): Retriever => ({
  id,
  label: id,
  prepare: async () => undefined,
  forCorpus: () => () => Float64Array.from(scores),
});

const evaluation = scoreProtocol(protocol, fixed('fixed', [0.9, 0.5, 0.1]), 10);

describe('recallTable with groups named like the page’s own keys', () => {
  const table = recallTable(evaluation, 1);

  it('gives the whole series one row of its own, apart from a group named "all"', () => {
    const whole = table.filter(isWholeSeries);
    expect(whole).toHaveLength(1);
    expect(whole[0]).toMatchObject({ series: 'query', group: null, queries: 8, hits: 4 });
    expect(table.find((c) => c.group === 'all')).toMatchObject({ queries: 2, hits: 1 });
    expect(levelOf(whole[0])).toBe('series');
    expect(levelOf({ group: 'all' })).toBe('group');
  });

  it('lists each distinct group once, sorted, "__proto__" and "" included; no group is no row', () => {
    expect(table.map((c) => c.group)).toEqual([
      null,
      '',
      '__proto__',
      'all',
      'constructor',
      'toString',
      LONG,
    ]);
    expect(groupsOf(protocol.queries)).toEqual([
      '',
      '__proto__',
      'all',
      'constructor',
      'toString',
      LONG,
    ]);
    expect(table.find((c) => c.group === '__proto__')).toMatchObject({ queries: 1, hits: 1 });
    expect(table.find((c) => c.group === 'constructor')).toMatchObject({ queries: 1, hits: 0 });
  });

  it('keys every row apart, whatever the names', () => {
    const keys = table.map(seriesGroupKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(seriesGroupKey({ series: 'query', group: null })).not.toBe(
      seriesGroupKey({ series: 'query', group: 'null' }),
    );
    expect(seriesGroupKey({ series: 'a|b', group: 'c' })).not.toBe(
      seriesGroupKey({ series: 'a', group: 'b|c' }),
    );
  });

  it('prints the whole series by its name and a group named "all" as a group', () => {
    const lines = summaryLines(evaluation, 1);
    const byGroup = lines.slice(lines.indexOf('by group, recall@1 [95% interval]:') + 1);
    expect(byGroup[0]).toMatch(/^ {2}query {2,}/);
    expect(byGroup.filter((l) => l.startsWith('  query / all '))).toHaveLength(1);
    expect(byGroup.filter((l) => l.startsWith('  query / __proto__ '))).toHaveLength(1);
  });
});

describe('a comparison with those groups', () => {
  const other = scoreProtocol(protocol, fixed('other', [0.1, 0.5, 0.9]), 10);
  const c = compareRetrievers(
    [
      { ref: 'fixed', label: 'fixed', evaluation },
      { ref: 'other', label: 'other', evaluation: other },
    ],
    { ks: [1], tieK: 1 },
  );

  it('keeps the whole series apart from the group "all" in its cells, pairs, ties and CSV', () => {
    const pairs = c.pairs.filter((p) => p.metric === 'recall' && p.k === 1);
    expect(pairs.filter(isWholeSeries)).toHaveLength(1);
    expect(pairs.find(isWholeSeries)?.queries).toBe(8);
    expect(pairs.find((p) => p.group === 'all')?.queries).toBe(2);
    expect(c.ties.filter(isWholeSeries)).toHaveLength(1);
    const rows = comparisonCsvRows(c).filter((r) => r.metric === 'recall' && r.k === 1);
    expect(rows.map((r) => [r.level, r.group])).toEqual([
      ['series', null],
      ['group', ''],
      ['group', '__proto__'],
      ['group', 'all'],
      ['group', 'constructor'],
      ['group', 'toString'],
      ['group', LONG],
    ]);
  });

  it('adjusts each family (series, group, k) apart: the whole series is not the group "all"', () => {
    const whole = c.pairs.find((p) => isWholeSeries(p) && p.metric === 'recall' && p.k === 1);
    const all = c.pairs.find((p) => p.group === 'all' && p.metric === 'recall' && p.k === 1);
    // One pair per family: Holm leaves each p as it is.
    expect(whole?.pHolm).toBe(whole?.p);
    expect(all?.pHolm).toBe(all?.p);
  });
});

describe('recall intervals: one method, never zero-width', () => {
  it('gives partial credit on one query a Wilson interval, not [50.0, 50.0]', () => {
    const half = recallInterval(0.5, 1);
    expect(half).not.toBeNull();
    expect(half?.lo).toBeLessThan(0.5);
    expect(half?.hi).toBeGreaterThan(0.5);
    expect(half).toEqual(wilson(0.5, 1));
  });

  it('matches the 1/1 Wilson interval for a whole hit', () => {
    expect(recallInterval(1, 1)).toEqual(wilson(1, 1));
    expect(formatPercentInterval(recallInterval(1, 1))).toBe('[20.7, 100.0]');
    expect(recallInterval(0, 0)).toBeNull();
  });
});
