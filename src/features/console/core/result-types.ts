// A console result's columns with DuckDB's type names (from DESCRIBE of the query) where DuckDB
// gave them, else the Arrow type the result carried; and how a cell reads in the grid.
import type { SqlValue } from '../../../lib/query/sql-values.ts';
import type { StatementColumn } from '../../../lib/db/engine.ts';

export interface ConsoleColumn {
  name: string;
  type: string;
}

export interface DescribedColumn {
  column_name: string;
  column_type: string;
}

export function consoleColumns(
  columns: readonly StatementColumn[],
  described: readonly DescribedColumn[] | null,
): ConsoleColumn[] {
  const fits =
    described !== null &&
    described.length === columns.length &&
    described.every((d, i) => d.column_name === columns[i].name);
  return columns.map((c, i) => ({
    name: c.name,
    type: fits ? described[i].column_type : c.arrowType,
  }));
}

const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL|Int|Uint|Float)/i;

export function isNumericType(type: string): boolean {
  return NUMERIC.test(type) && !type.includes('[');
}

/** A cell as text: NULL spelled out, lists and structs as JSON. */
export function cellText(value: SqlValue | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
