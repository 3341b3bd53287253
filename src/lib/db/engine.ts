import type { SqlParam, SqlRow, SqlValue } from '../query/sql-values.ts';

export type { SqlParam, SqlRow, SqlValue };

export interface StatementColumn {
  name: string;
  /** The Arrow type the result carried (`Utf8`, `Float64`, `List<Int32>`…). */
  arrowType: string;
}

export interface StatementResult {
  columns: StatementColumn[];
  rows: SqlRow[];
  /** More rows followed than were read. */
  truncated: boolean;
}

export class StatementCancelledError extends Error {
  constructor() {
    super('Cancelled: DuckDB stopped the statement.');
    this.name = 'StatementCancelledError';
  }
}

/** The SQL console's own connection: it runs the reader's text as written, and can stop it. */
export interface StatementRunner {
  /**
   * Reads at most `maxRows` rows of the last statement's result. Once `signal` is aborted (a
   * cancel, at any moment of the console's run) it throws StatementCancelledError.
   */
  run(sql: string, maxRows: number, signal?: AbortSignal): Promise<StatementResult>;
  /**
   * Prepares `sql` without running it: DuckDB's own parser refuses a text that holds more than
   * one statement, so what the console judged is exactly what runs.
   */
  check(sql: string, signal?: AbortSignal): Promise<void>;
  /** Asks DuckDB to stop the statement in flight; false when nothing could be stopped. */
  cancel(): Promise<boolean>;
  close(): Promise<void>;
}

/** The few DuckDB-WASM operations MemLens needs, the same in a browser worker and in Node. */
export interface SqlEngine {
  /** With `params`, `sql` runs as one prepared statement with each `?` bound in order. */
  query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]>;
  registerText(name: string, text: string): Promise<void>;
  /** Creates `table` from a registered JSON array-of-objects file (duckdb-wasm's own reader; no extension). */
  insertJsonFromPath(name: string, table: string): Promise<void>;
  dropFile(name: string): Promise<void>;
  /** A second connection to the same database, for the SQL console. */
  openStatementRunner(): Promise<StatementRunner>;
  close(): Promise<void>;
}

/** The one folder DuckDB may open: every file MemLens hands DuckDB is registered under it. */
export const REGISTERED_DIR = '/memlens-files/';

/**
 * Marks the browser engine sets as DuckDB starts, first start only, in order: the client loaded
 * and a bundle chosen, the worker created from its checked script, the wasm compiled and DuckDB's
 * runtime up, the database opened. `npm run bench:load` times each from navigation.
 */
export const DUCKDB_START_PHASES = ['client', 'worker', 'instantiated', 'opened'] as const;
export type DuckdbStartPhase = (typeof DUCKDB_START_PHASES)[number];
export const duckdbStartMark = (phase: DuckdbStartPhase): string => `memlens:duckdb:${phase}`;

/**
 * Run once after start-up: no extension is fetched or loaded, no file outside `REGISTERED_DIR`
 * (no URL, so nothing a statement does can reach another origin), and no later `SET` or `RESET`
 * can undo any of it. docs/reliability.md lists what each setting was seen to refuse.
 */
export const LOCKDOWN_SQL = [
  'SET autoinstall_known_extensions = false',
  'SET autoload_known_extensions = false',
  `SET allowed_directories = ['${REGISTERED_DIR}']`,
  'SET enable_external_access = false',
  'SET lock_configuration = true',
]
  .map((s) => `${s};`)
  .join(' ');

interface ArrowLikeVector {
  toArray(): ArrayLike<unknown>;
}

function isArrowVector(v: unknown): v is ArrowLikeVector {
  return typeof v === 'object' && v !== null && 'toArray' in v && 'length' in v && 'get' in v;
}

function isTypedArray(v: unknown): v is ArrayLike<number | bigint> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

/** Arrow values to plain JSON-like values: BigInt → number, vectors → arrays, structs → objects. */
export function toPlainValue(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (isArrowVector(v)) return Array.from(v.toArray(), toPlainValue);
  if (isTypedArray(v)) return Array.from(v, toPlainValue);
  if (Array.isArray(v)) return v.map(toPlainValue);
  if (typeof v === 'object') {
    const json = 'toJSON' in v && typeof v.toJSON === 'function' ? (v.toJSON() as object) : v;
    const out: { [key: string]: SqlValue } = {};
    for (const [k, val] of Object.entries(json)) out[k] = toPlainValue(val);
    return out;
  }
  return String(v);
}

export interface ArrowTableLike {
  toArray(): { toJSON(): Record<string, unknown> }[];
}

export function arrowRow(row: { toJSON(): Record<string, unknown> }): SqlRow {
  const out: SqlRow = {};
  for (const [k, v] of Object.entries(row.toJSON())) out[k] = toPlainValue(v);
  return out;
}

export function arrowToRows(table: ArrowTableLike): SqlRow[] {
  return table.toArray().map(arrowRow);
}

export interface ArrowSchemaLike {
  fields: readonly { name: string; type: { toString(): string } }[];
}

export function arrowColumns(schema: ArrowSchemaLike): StatementColumn[] {
  return schema.fields.map((f) => ({ name: f.name, arrowType: String(f.type) }));
}
