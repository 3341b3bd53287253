// The rows of every chart whose data is known at build time (the released results), computed by
// the same SQL in Node with DuckDB at build time, so the first chart needs no database.
import type { Catalog } from '../db/catalog.ts';
import type { SqlRow, SqlValue } from '../db/engine.ts';
import { EMBEDDING_CHOICES } from '../charts/inmind-table1.ts';
import { inmindCharts } from '../charts/paper-charts.ts';
import { OVERVIEW_CHART } from './overview.ts';
import { PAPER_CHARTS } from './papers.ts';
import { chartQuery, type ChartDef } from '../charts/chart-kit.ts';

/** Served at the site root, next to index.html, and precached like the rest of the shell. */
export const CHART_SNAPSHOT_FILE = 'chart-snapshot.json';

export interface ChartSnapshot {
  version: 1;
  /** Rows by the exact SQL text that produced them. */
  charts: Record<string, SqlRow[]>;
}

/** Every chart over `results`: the overview, each paper's charts and InMind's embedding views. */
export function snapshotCharts(): ChartDef[] {
  const all = [
    OVERVIEW_CHART,
    ...Object.values(PAPER_CHARTS).flat(),
    ...EMBEDDING_CHOICES.flatMap((choice) => inmindCharts(choice)),
  ];
  const seen = new Set<string>();
  return all.filter((def) => !seen.has(def.sql) && seen.add(def.sql));
}

export async function buildChartSnapshot(
  catalog: Catalog,
  charts: readonly ChartDef[] = snapshotCharts(),
): Promise<ChartSnapshot> {
  const out: Record<string, SqlRow[]> = {};
  for (const def of charts) out[def.sql] = await catalog.run(chartQuery(def));
  return { version: 1, charts: out };
}

function isSqlValue(v: unknown): v is SqlValue {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.every(isSqlValue);
  return typeof v === 'object' && Object.values(v as object).every(isSqlValue);
}

function isRow(v: unknown): v is SqlRow {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && isSqlValue(v);
}

/** A snapshot from JSON, or null when it is not one (an old or broken file is just not used). */
export function parseChartSnapshot(json: unknown): ChartSnapshot | null {
  if (typeof json !== 'object' || json === null) return null;
  const { version, charts } = json as { version?: unknown; charts?: unknown };
  if (version !== 1 || typeof charts !== 'object' || charts === null) return null;
  const out: Record<string, SqlRow[]> = {};
  for (const [sql, rows] of Object.entries(charts)) {
    if (!Array.isArray(rows) || !rows.every(isRow)) return null;
    out[sql] = rows;
  }
  return { version: 1, charts: out };
}

export function snapshotRows(snapshot: ChartSnapshot | null, sql: string): SqlRow[] | null {
  return snapshot && Object.hasOwn(snapshot.charts, sql) ? snapshot.charts[sql] : null;
}

export async function loadChartSnapshot(
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
): Promise<ChartSnapshot | null> {
  try {
    const res = await fetchImpl(new URL(CHART_SNAPSHOT_FILE, siteBase).href);
    return res.ok ? parseChartSnapshot(await res.json()) : null;
  } catch {
    return null;
  }
}

/** Same rows in the same order: the live query then changes nothing on screen. */
export function sameRows(a: readonly SqlRow[], b: readonly SqlRow[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
