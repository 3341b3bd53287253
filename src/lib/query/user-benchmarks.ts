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

const RECORD_ROW = rowSchema({
  line: 'number',
  query: 'string?',
  memory: 'string?',
  gold: 'value',
  conversation: 'string?',
  speaker: 'string?',
  fields: 'string?',
});

/** The mapped columns of a user table in file order: what a benchmark declaration reads. */
export const userRecordsQuery = defineQuery(
  'your table as a benchmark',
  (table: string, limit: number | null = null) =>
    sql`SELECT line, query, memory, gold, conversation, speaker, fields FROM ${ident(table)} ORDER BY line${trusted(limit === null ? '' : ` LIMIT ${Math.trunc(limit)}`)}`,
  RECORD_ROW,
);

/**
 * The rows a declaration's field choices come from: the first `limit` rows, and the first `limit`
 * holding a query and holding a memory, so queries after 10⁵ memories are offered too.
 */
export const userRecordsSampleQuery = defineQuery(
  'your table’s fields',
  (table: string, limit: number) => {
    const n = trusted(String(Math.max(1, Math.trunc(limit))));
    const cols = trusted('line, query, memory, gold, conversation, speaker, fields');
    const t = ident(table);
    return sql`SELECT ${cols} FROM (
  (SELECT ${cols} FROM ${t} ORDER BY line LIMIT ${n})
  UNION (SELECT ${cols} FROM ${t} WHERE query IS NOT NULL ORDER BY line LIMIT ${n})
  UNION (SELECT ${cols} FROM ${t} WHERE memory IS NOT NULL ORDER BY line LIMIT ${n})
) ORDER BY line`;
  },
  RECORD_ROW,
);
