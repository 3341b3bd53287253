// Performance marks for the three load figures `npm run bench:load` reports and the e2e checks.
export const FIRST_CHART_MARK = 'memlens:first-chart';
export const DUCKDB_READY_MARK = 'memlens:duckdb-ready';
export const INTERACTIVE_MARK = 'memlens:interactive';

export type LoadMark = typeof FIRST_CHART_MARK | typeof DUCKDB_READY_MARK | typeof INTERACTIVE_MARK;

interface MarkTimeline {
  mark(name: string): unknown;
  getEntriesByName(name: string, type?: string): { startTime: number }[];
}

/** Only the first occurrence counts: later charts or reloads of the tables add nothing. */
export function markOnce(name: LoadMark, timeline: MarkTimeline = performance): void {
  if (timeline.getEntriesByName(name, 'mark').length === 0) timeline.mark(name);
}

export function markTime(name: LoadMark, timeline: MarkTimeline = performance): number | null {
  const [entry] = timeline.getEntriesByName(name, 'mark');
  return entry ? entry.startTime : null;
}

/** What the header shows while SQL starts, and what pages say about their SQL-backed parts. */
export type SqlState = 'starting' | 'loading' | 'ready' | 'failed';

export const SQL_STATE_LABEL: Record<SqlState, string> = {
  starting: 'SQL: starting…',
  loading: 'SQL: loading…',
  ready: 'SQL: ready',
  failed: 'SQL: unavailable',
};
