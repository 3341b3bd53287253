/** A value as DuckDB returns it, made plain (no Arrow, no BigInt). */
export type SqlValue = string | number | boolean | null | SqlValue[] | { [key: string]: SqlValue };
export type SqlRow = Record<string, SqlValue>;
/** A value bound to a prepared statement's `?`: never spliced into SQL text. */
export type SqlParam = string | number | boolean | null;
