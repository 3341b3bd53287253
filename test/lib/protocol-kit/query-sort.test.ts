import { describe, expect, it } from 'vitest';
import { QUERY_SORT, sortQueryRows } from '../../../src/lib/protocol-kit/query-sort.ts';
import type { QueryRowView } from '../../../src/lib/protocol-kit/report.ts';
import { readSort } from '../../../src/lib/common/url-params.ts';

function row(id: string, rank: number | null, score: number | null, query: string): QueryRowView {
  return {
    query_id: id,
    series: id.startsWith('n') ? 'naive' : 'indirect',
    group: 'g',
    query,
    target_rank: rank,
    target_score: score,
    recall_at_k: rank !== null && rank <= 10 ? 1 : 0,
    gold: 1,
    corpus_size: 100,
  };
}

const rows = [
  row('n1', 1, 0.9, 'banana'),
  row('i1', 40, 0.2, 'apple'),
  row('n2', null, null, 'cherry'),
  row('i2', 3, 0.7, 'Apple pie'),
];

const ids = (sorted: QueryRowView[]) => sorted.map((r) => r.query_id);

describe('the per-query table sort', () => {
  it('defaults to the best target rank first (absent from the URL)', () => {
    const sort = readSort({}, QUERY_SORT);
    expect(ids(sortQueryRows(rows, sort))).toEqual(['n1', 'i2', 'i1', 'n2']);
  });

  it('sorts by score descending, with queries without a target last either way', () => {
    expect(ids(sortQueryRows(rows, { column: 'target_score', descending: true }))).toEqual([
      'n1',
      'i2',
      'i1',
      'n2',
    ]);
    expect(ids(sortQueryRows(rows, { column: 'target_rank', descending: true }))).toEqual([
      'i1',
      'i2',
      'n1',
      'n2',
    ]);
  });

  it('sorts text by locale and keeps the table order on ties', () => {
    expect(ids(sortQueryRows(rows, { column: 'query', descending: false }))).toEqual([
      'i1',
      'i2',
      'n1',
      'n2',
    ]);
    expect(ids(sortQueryRows(rows, { column: 'series', descending: false }))).toEqual([
      'i1',
      'i2',
      'n1',
      'n2',
    ]);
  });

  it('reads the column from qsort/qdir and ignores unknown ones', () => {
    expect(readSort({ qsort: 'recall_at_k', qdir: 'desc' }, QUERY_SORT)).toEqual({
      column: 'recall_at_k',
      descending: true,
    });
    expect(readSort({ qsort: 'gold' }, QUERY_SORT)).toEqual(QUERY_SORT.fallback);
  });
});
