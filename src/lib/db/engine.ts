import type { SqlParam, SqlRow, SqlValue } from '../query/sql-values.ts';

export type { SqlParam, SqlRow, SqlValue };

/** The few DuckDB-WASM operations MemLens needs, the same in a browser worker and in Node. */
export interface SqlEngine {
  /** With `params`, `sql` runs as one prepared statement with each `?` bound in order. */
  query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]>;
  registerText(name: string, text: string): Promise<void>;
  /** Creates `table` from a registered JSON array-of-objects file (duckdb-wasm's own reader; no extension). */
  insertJsonFromPath(name: string, table: string): Promise<void>;
  dropFile(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Offline: DuckDB must never try to fetch an extension from extensions.duckdb.org. */
export const OFFLINE_SETTINGS_SQL =
  'SET autoinstall_known_extensions = false; SET autoload_known_extensions = false;';

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

export function arrowToRows(table: ArrowTableLike): SqlRow[] {
  return table.toArray().map((row) => {
    const out: SqlRow = {};
    for (const [k, v] of Object.entries(row.toJSON())) out[k] = toPlainValue(v);
    return out;
  });
}
