// Query rows are checked, not cast: each column's kind is declared next to its SQL, and a row
// that does not fit says which column and what it held.
import type { SqlRow, SqlValue } from './sql-values.ts';

export type ColumnKind =
  'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'string[]' | 'number[]' | 'value';

interface KindTypes {
  string: string;
  'string?': string | null;
  number: number;
  'number?': number | null;
  boolean: boolean;
  'string[]': string[];
  'number[]': number[];
  value: SqlValue;
}

/** A column kind, or the fixed strings a column may hold (`['asked', 'used']`). */
export type ColumnSpec = ColumnKind | readonly string[];

type SpecType<C extends ColumnSpec> = C extends ColumnKind
  ? KindTypes[C]
  : C extends readonly (infer U)[]
    ? U
    : never;

export type RowOf<S extends Record<string, ColumnSpec>> = { [K in keyof S]: SpecType<S[K]> };

export type RowDecoder<T> = (row: SqlRow, index: number) => T;

export class RowDecodeError extends Error {
  constructor(
    readonly column: string,
    readonly rowIndex: number,
    detail: string,
  ) {
    super(`row ${rowIndex + 1}, column ${column}: ${detail}`);
    this.name = 'RowDecodeError';
  }
}

function describe(value: SqlValue | undefined): string {
  if (value === undefined) return 'nothing (no such column)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}

function fits(spec: ColumnSpec, value: SqlValue | undefined): boolean {
  if (typeof spec !== 'string') return typeof value === 'string' && spec.includes(value);
  switch (spec) {
    case 'string':
      return typeof value === 'string';
    case 'string?':
      return value === null || typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'number?':
      return value === null || typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'number[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'number');
    case 'value':
      return value !== undefined;
  }
}

function isRowOf<S extends Record<string, ColumnSpec>>(
  schema: S,
  row: SqlRow,
  index: number,
): row is SqlRow & RowOf<S> {
  for (const [column, spec] of Object.entries(schema)) {
    const value = row[column];
    if (!fits(spec, value)) {
      const expected = typeof spec === 'string' ? spec : `one of ${spec.join(', ')}`;
      throw new RowDecodeError(column, index, `expected ${expected}, got ${describe(value)}`);
    }
  }
  return true;
}

/** A decoder checking each declared column against its kind (other columns pass through). */
export function rowSchema<const S extends Record<string, ColumnSpec>>(
  schema: S,
): RowDecoder<RowOf<S>> {
  return (row, index) => {
    if (isRowOf(schema, row, index)) return row;
    throw new RowDecodeError('?', index, 'does not fit');
  };
}

/** Rows handed on as they are (to Vega, to a grid): every value is already plain data. */
export const anyRow: RowDecoder<SqlRow> = (row) => row;
