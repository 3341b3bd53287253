// A console result as CSV (through the app's formula-safe writer) or as Parquet.
import { parquetWriteBuffer, type BasicType, type ColumnSource } from 'hyparquet-writer';
import { csvExport, type CsvExport } from '../../../lib/common/csv-export.ts';
import type { SqlRow, SqlValue } from '../../../lib/query/sql-values.ts';
import type { ConsoleColumn } from './result-types.ts';

export function resultCsv(columns: readonly ConsoleColumn[], rows: readonly SqlRow[]): CsvExport {
  // Every column, in the result's order, even when no row has a value for it.
  const header: SqlRow = Object.fromEntries(columns.map((c) => [c.name, null]));
  const ordered = rows.map((r) => ({ ...header, ...r }));
  if (ordered.length > 0) return csvExport(ordered);
  const empty = csvExport([header]);
  return { text: `${empty.text.split('\n')[0]}\n`, neutralised: empty.neutralised };
}

function parquetType(type: string): BasicType {
  const t = type.toUpperCase();
  if (t === 'BOOLEAN' || t === 'BOOL') return 'BOOLEAN';
  if (/^(TINYINT|SMALLINT|INTEGER|UTINYINT|USMALLINT|INT8|INT16|INT32)$/.test(t)) return 'INT32';
  if (isPlainNumber(t)) return 'DOUBLE';
  return 'STRING';
}

function isPlainNumber(t: string): boolean {
  return /^(BIGINT|HUGEINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|REAL|DECIMAL|INT64|FLOAT64)/.test(t);
}

function parquetValue(kind: BasicType, v: SqlValue | undefined): SqlValue {
  if (v === null || v === undefined) return null;
  if (kind === 'STRING') return typeof v === 'object' ? JSON.stringify(v) : String(v);
  return v;
}

/** Numbers stay numbers, booleans booleans; text, dates, lists and structs are written as text. */
export function resultParquet(
  columns: readonly ConsoleColumn[],
  rows: readonly SqlRow[],
): ArrayBuffer {
  const columnData: ColumnSource[] = columns.map((c) => {
    const kind = parquetType(c.type);
    const data = rows.map((r) => parquetValue(kind, r[c.name]));
    return { name: c.name, type: kind, data, nullable: true };
  });
  return parquetWriteBuffer({ columnData });
}
