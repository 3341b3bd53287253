export type SqlValue = string | number | boolean | null | SqlValue[] | { [key: string]: SqlValue };
export type SqlRow = Record<string, SqlValue>;

/** The few DuckDB-WASM operations MemLens needs, the same in a browser worker and in Node. */
export interface SqlEngine {
  query(sql: string): Promise<SqlRow[]>;
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

/** Arrow values to plain JSON-like values: BigInt → number, vectors → arrays, structs → objects. */
export function toPlainValue(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (isArrowVector(v)) return Array.from(v.toArray(), toPlainValue);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, toPlainValue);
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
