// Questions about DuckDB's own contents: which tables it holds and how many rows each has.
import { defineQuery } from './define-query.ts';
import { rowSchema } from './row-schema.ts';
import { ident, joinSql, sql } from './sql.ts';

/** Every table and view in DuckDB, internal ones (`__…`) included. */
export const tableNamesQuery = defineQuery(
  'table names',
  () =>
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1`,
  rowSchema({ table_name: 'string' }),
);

/** Names a reader sees: internal staging and bookkeeping tables start with `__`. */
export function visibleTables(rows: readonly { table_name: string }[]): string[] {
  return rows.map((r) => r.table_name).filter((n) => !n.startsWith('__'));
}

export const tableCountsQuery = defineQuery(
  'table row counts',
  (tables: readonly string[]) => {
    if (tables.length === 0) return sql`SELECT '' AS "table", 0 AS "rows" WHERE false`;
    const counts = joinSql(
      tables.map(
        (t) => sql`SELECT ${t} AS "table", CAST(count(*) AS BIGINT) AS "rows" FROM ${ident(t)}`,
      ),
      '\nUNION ALL\n',
    );
    return sql`SELECT * FROM (${counts}) ORDER BY "table"`;
  },
  rowSchema({ table: 'string', rows: 'number' }),
);
