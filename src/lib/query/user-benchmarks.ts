// What a reader's benchmark reads: the declarations kept in DuckDB and a declared table's rows
// (the statements that write them are in user-tables.ts, beside the tables' own).
import { defineQuery } from './define-query.ts';
import { rowSchema } from './row-schema.ts';
import { ident, sql, trusted } from './sql.ts';
import { USER_BENCHMARKS_DDL, USER_BENCHMARKS_META } from './user-tables.ts';

/** Every declared benchmark: the table it reads and its declaration's JSON. */
export const userBenchmarksQuery = defineQuery(
  'your benchmarks',
  () => sql`${trusted(USER_BENCHMARKS_DDL)};
SELECT name, declaration FROM ${ident(USER_BENCHMARKS_META)} ORDER BY name`,
  rowSchema({ name: 'string', declaration: 'string' }),
);

/** The mapped columns of a user table in file order: what a benchmark declaration reads. */
export const userRecordsQuery = defineQuery(
  'your table as a benchmark',
  (table: string, limit: number | null = null) =>
    sql`SELECT line, query, memory, gold, conversation, speaker, fields FROM ${ident(table)} ORDER BY line${trusted(limit === null ? '' : ` LIMIT ${Math.trunc(limit)}`)}`,
  rowSchema({
    line: 'number',
    query: 'string?',
    memory: 'string?',
    gold: 'value',
    conversation: 'string?',
    speaker: 'string?',
    fields: 'string?',
  }),
);
