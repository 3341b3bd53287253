// What the reader loaded: the record of their tables, a preview of one, and an InMind
// submission's report, as queries; and the statements that write and drop those tables.
import { defineQuery } from './define-query.ts';
import { anyRow, rowSchema } from './row-schema.ts';
import { quoteIdent } from './sql-text.ts';
import { ident, joinSql, sql, trusted, type SqlFragment } from './sql.ts';

export const USER_TABLES_META = '__user_tables';
export const USER_META_DDL = `CREATE TABLE IF NOT EXISTS ${USER_TABLES_META} (name VARCHAR, file VARCHAR,
  kind VARCHAR, format VARCHAR, "rows" INTEGER, mapping VARCHAR, loaded_at VARCHAR)`;

/** The benchmark declared over a user table (userdata/benchmark-decl.ts), as JSON, one per table. */
export const USER_BENCHMARKS_META = '__user_benchmarks';
export const USER_BENCHMARKS_DDL = `CREATE TABLE IF NOT EXISTS ${USER_BENCHMARKS_META} (name VARCHAR, declaration VARCHAR)`;

export function isUserTable(name: string): boolean {
  return name.startsWith('user_');
}

export const userTablesQuery = defineQuery(
  'your tables',
  () => sql`${trusted(USER_META_DDL)};
SELECT name, file, kind, format, "rows", mapping, loaded_at FROM ${ident(USER_TABLES_META)} ORDER BY loaded_at, name`,
  rowSchema({
    name: 'string',
    file: 'string',
    kind: 'string',
    format: 'string',
    rows: 'number',
    mapping: 'string',
    loaded_at: 'string',
  }),
);

/** Declares (or re-declares) `table` a benchmark; its rows were checked against it before. */
export function declareBenchmarkStatements(table: string, declaration: string): SqlFragment[] {
  return [
    sql`BEGIN TRANSACTION`,
    sql`${trusted(USER_BENCHMARKS_DDL)}`,
    sql`DELETE FROM ${ident(USER_BENCHMARKS_META)} WHERE name = ${table}`,
    sql`INSERT INTO ${ident(USER_BENCHMARKS_META)} VALUES (${table}, ${declaration})`,
    sql`COMMIT`,
  ];
}

/** `table` is a benchmark no more (the table itself stays). */
export function undeclareBenchmarkStatements(table: string): SqlFragment[] {
  return [
    sql`BEGIN TRANSACTION`,
    sql`${trusted(USER_BENCHMARKS_DDL)}`,
    sql`DELETE FROM ${ident(USER_BENCHMARKS_META)} WHERE name = ${table}`,
    sql`COMMIT`,
  ];
}

export const tableRowsQuery = defineQuery(
  'table rows',
  (table: string, limit: number) =>
    sql`SELECT * FROM ${ident(table)} LIMIT ${trusted(String(Math.trunc(limit)))}`,
  anyRow,
);

/** The SQL twin of `normalizeForMatch` (userdata/normalize.ts). */
export function normalizedSql(expr: string): string {
  return `trim(regexp_replace(regexp_replace(lower(${expr}), '[\\p{P}\\p{S}]', '', 'g'), '[\\x09-\\x0D\\p{Z}]+', ' ', 'g'))`;
}

function containsFlags(table: string): SqlFragment {
  const flags = (turn: 'naive' | 'query') => {
    const context = `s.${turn}_context`;
    return `contains(${context}, t.user_message) AS ${turn}_exact,
  contains(${normalizedSql(context)}, ${normalizedSql('t.user_message')}) AS ${turn}_normalized`;
  };
  return sql`SELECT s.system, s.task_id, t.domain, t.user_message, t.naive_query, t.query AS indirect_query,
  s.naive_answer, s.query_answer, length(s.naive_context) AS naive_context_chars,
  length(s.query_context) AS query_context_chars, ${trusted(flags('naive'))}, ${trusted(flags('query'))}
FROM ${ident(table)} s JOIN inmind_tasks t USING (task_id)`;
}

/** Per system and domain (plus an all-domains row): share of tasks whose context holds the target. */
export const submissionByDomainQuery = defineQuery(
  'submission by domain',
  (table: string) => {
    const share = (flag: string) => trusted(`avg(CAST(${flag} AS INTEGER)) AS ${flag}`);
    return sql`WITH f AS (${containsFlags(table)})
SELECT system, coalesce(domain, 'All domains') AS domain, CAST(GROUPING(domain) AS INTEGER) AS is_total,
  CAST(count(*) AS INTEGER) AS tasks, ${share('naive_exact')}, ${share('naive_normalized')},
  ${share('query_exact')}, ${share('query_normalized')},
  avg(naive_context_chars) AS naive_context_chars, avg(query_context_chars) AS query_context_chars
FROM f GROUP BY GROUPING SETS ((system, domain), (system))
ORDER BY system, is_total, domain`;
  },
  rowSchema({
    system: 'string',
    domain: 'string',
    is_total: 'number',
    tasks: 'number',
    naive_exact: 'number?',
    naive_normalized: 'number?',
    query_exact: 'number?',
    query_normalized: 'number?',
    naive_context_chars: 'number?',
    query_context_chars: 'number?',
  }),
);

export const submissionTasksQuery = defineQuery(
  'submission tasks',
  (table: string) => sql`${containsFlags(table)} ORDER BY s.system, s.task_id`,
  rowSchema({
    system: 'string',
    task_id: 'number',
    domain: 'string',
    user_message: 'string?',
    naive_query: 'string?',
    indirect_query: 'string?',
    naive_answer: 'string?',
    query_answer: 'string?',
    naive_context_chars: 'number?',
    query_context_chars: 'number?',
    naive_exact: 'value',
    naive_normalized: 'value',
    query_exact: 'value',
    query_normalized: 'value',
  }),
);

// Writing and dropping the reader's tables (userdata/table-writer.ts, persist.ts).

export type UserColumnType = 'VARCHAR' | 'INTEGER' | 'BIGINT' | 'VARCHAR[]';
export interface UserColumn {
  name: string;
  type: UserColumnType;
}
export type UserCell = string | number | readonly string[] | null;

export interface UserTableMeta {
  name: string;
  file: string;
  kind: string;
  format: string;
  rows: number;
  mapping: string;
}

export function createUserStagingSql(table: string, columns: readonly UserColumn[]): string {
  const defs = columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
  return `CREATE TABLE ${quoteIdent(table)} (${defs})`;
}

/** A text too long to bind in one statement, staged piecewise in `table` under `ref`. */
export interface StagedText {
  readonly staged: { table: string; ref: number };
}

export type InsertCell = UserCell | StagedText;

function isStaged(value: InsertCell): value is StagedText {
  return typeof value === 'object' && value !== null && 'staged' in value;
}

/** The piece table long texts are staged in, and one piece of one text. */
export function createPiecesSql(table: string): string {
  return `CREATE TABLE ${quoteIdent(table)} (ref INTEGER, k INTEGER, piece VARCHAR)`;
}

export function insertPiece(table: string, ref: number, k: number, piece: string): SqlFragment {
  return sql`INSERT INTO ${ident(table)} VALUES (${ref}, ${k}, ${piece})`;
}

function cellSql(value: InsertCell): SqlFragment {
  if (isStaged(value)) {
    const { table, ref } = value.staged;
    return sql`(SELECT string_agg(piece, '' ORDER BY k) FROM ${ident(table)} WHERE ref = ${ref})`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`not a finite number: ${value}`);
  }
  if (value === null || typeof value === 'number' || typeof value === 'string')
    return sql`${value}`;
  // A list binds one parameter per element; an empty one still has its type.
  return value.length === 0 ? sql`CAST([] AS VARCHAR[])` : sql`CAST([${value}] AS VARCHAR[])`;
}

/** One INSERT of many rows, every cell a bound parameter (file text never becomes SQL text). */
export function insertUserRows(
  table: string,
  rows: readonly (readonly InsertCell[])[],
): SqlFragment {
  const values = joinSql(
    rows.map((r) => sql`(${joinSql(r.map(cellSql), ', ')})`),
    ',\n',
  );
  return sql`INSERT INTO ${ident(table)} VALUES ${values}`;
}

/** Swaps the staged table in and records it; run in order inside one transaction. */
export function swapUserTableStatements(staging: string, meta: UserTableMeta): SqlFragment[] {
  const row: UserCell[] = [
    meta.name,
    meta.file,
    meta.kind,
    meta.format,
    meta.rows,
    meta.mapping,
    new Date().toISOString(),
  ];
  return [
    sql`BEGIN TRANSACTION`,
    sql`CREATE OR REPLACE TABLE ${ident(meta.name)} AS SELECT * FROM ${ident(staging)}`,
    sql`${trusted(USER_META_DDL)}`,
    sql`DELETE FROM ${ident(USER_TABLES_META)} WHERE name = ${meta.name}`,
    sql`INSERT INTO ${ident(USER_TABLES_META)} VALUES (${joinSql(row.map(cellSql), ', ')})`,
    // New rows may not fit the declaration made over the old ones: it is declared again.
    sql`${trusted(USER_BENCHMARKS_DDL)}`,
    sql`DELETE FROM ${ident(USER_BENCHMARKS_META)} WHERE name = ${meta.name}`,
    sql`COMMIT`,
  ];
}

export const ROLLBACK_SQL = 'ROLLBACK';

export function dropTableSql(table: string): string {
  return `DROP TABLE IF EXISTS ${quoteIdent(table)}`;
}

/** Drops a user table and its catalogue entry; run in order inside one transaction. */
export function dropUserTableStatements(name: string): SqlFragment[] {
  return [
    sql`BEGIN TRANSACTION`,
    sql`DROP TABLE IF EXISTS ${ident(name)}`,
    sql`${trusted(USER_META_DDL)}`,
    sql`DELETE FROM ${ident(USER_TABLES_META)} WHERE name = ${name}`,
    sql`${trusted(USER_BENCHMARKS_DDL)}`,
    sql`DELETE FROM ${ident(USER_BENCHMARKS_META)} WHERE name = ${name}`,
    sql`COMMIT`,
  ];
}
