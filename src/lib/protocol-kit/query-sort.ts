import type { SortKeys, SortState } from '../common/url-params.ts';
import type { QueryRowView } from './report.ts';

export const QUERY_SORT_COLUMNS = [
  'target_rank',
  'series',
  'group',
  'query',
  'target_score',
  'recall_at_k',
] as const;
export type QuerySortColumn = (typeof QUERY_SORT_COLUMNS)[number];

/** The Reproduce page's per-query table: `qsort` and `qdir` in the URL; best target rank first by default. */
export const QUERY_SORT: SortKeys<QuerySortColumn> = {
  column: 'qsort',
  dir: 'qdir',
  columns: QUERY_SORT_COLUMNS,
  fallback: { column: 'target_rank', descending: false },
};

type Cell = string | number | null;

function compareCells(a: Cell, b: Cell): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/**
 * Rows in the chosen order; queries without a value (no target document) stay last either way,
 * and ties keep the table's own order (best target rank first).
 */
export function sortQueryRows(
  rows: readonly QueryRowView[],
  sort: SortState<QuerySortColumn>,
): QueryRowView[] {
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => {
      const a = x.row[sort.column];
      const b = y.row[sort.column];
      if (a === null || b === null) return a === b ? x.index - y.index : a === null ? 1 : -1;
      return sign * compareCells(a, b) || x.index - y.index;
    })
    .map(({ row }) => row);
}
