// Every statement the console runs is a DuckDB transaction of its own, so what a statement can
// change is settled by what DuckDB did, never by how the console read the text: a query runs in
// a read-only transaction and is rolled back; a confirmed write commits only when DuckDB's catalog
// and the contents of every table it was not meant to change are as they were before it ran.
import type { StatementRunner } from '../../../lib/db/engine.ts';
import type { SqlRow } from '../../../lib/query/sql-values.ts';
import { quoteIdent } from '../../../lib/query/sql-text.ts';
import { errorMessage } from '../../../lib/common/error-message.ts';

/** Why a statement was undone: it changed what it had no right to, or ended the transaction. */
export class TransactionRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransactionRefusal';
  }
}

/** Every object in DuckDB's catalog a statement could add, replace or drop, with its definition. */
const CATALOG_SQL = `
SELECT 'table' AS kind, database_name AS db, schema_name AS sch, table_name AS name, sql AS def FROM duckdb_tables()
UNION ALL SELECT 'view', database_name, schema_name, view_name, sql FROM duckdb_views() WHERE NOT internal
UNION ALL SELECT 'function', database_name, schema_name, function_name, function_type || ':' || coalesce(macro_definition, '') FROM duckdb_functions() WHERE NOT internal
UNION ALL SELECT 'type', database_name, schema_name, type_name, logical_type FROM duckdb_types() WHERE NOT internal
UNION ALL SELECT 'sequence', database_name, schema_name, sequence_name, sql FROM duckdb_sequences()
UNION ALL SELECT 'index', database_name, schema_name, index_name, sql FROM duckdb_indexes()
UNION ALL SELECT 'schema', database_name, schema_name, schema_name, coalesce(sql, '') FROM duckdb_schemas() WHERE NOT internal
UNION ALL SELECT 'database', database_name, '', database_name, coalesce(path, '') FROM duckdb_databases() WHERE NOT internal`;

interface CatalogEntry {
  kind: string;
  db: string;
  sch: string;
  name: string;
  def: string;
}

const text = (row: SqlRow, key: string): string => String(row[key] ?? '');

function catalogEntry(row: SqlRow): CatalogEntry {
  return {
    kind: text(row, 'kind'),
    db: text(row, 'db'),
    sch: text(row, 'sch'),
    name: text(row, 'name'),
    def: text(row, 'def'),
  };
}

const qualified = (e: CatalogEntry) => [e.db, e.sch, e.name].map(quoteIdent).join('.');

/** One row per table: its row count and the sum of its rows' hashes, as text. */
function contentsSql(tables: readonly CatalogEntry[]): string {
  return tables
    .map(
      (t, i) =>
        `SELECT ${i} AS i, count(*)::VARCHAR AS n, coalesce(sum(hash(*COLUMNS(*))), 0)::VARCHAR AS h FROM ${qualified(t)}`,
    )
    .join(' UNION ALL ');
}

/**
 * What DuckDB holds outside `except` (lower-cased names): each catalog object with its
 * definition, and each table's row count and content hash. Read inside the statement's own
 * transaction, so it sees what the statement did and nothing other connections did meanwhile.
 */
export async function catalogFingerprint(
  runner: StatementRunner,
  except: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const { rows } = await runner.run(CATALOG_SQL, 1_000_000);
  const entries = rows.map(catalogEntry).filter((e) => !except.has(e.name.toLowerCase()));
  const print = new Map<string, string>();
  for (const e of entries) print.set(`${e.kind} ${qualified(e)}`, e.def);
  const tables = entries.filter((e) => e.kind === 'table');
  if (tables.length === 0) return print;
  const contents = await runner.run(contentsSql(tables), tables.length);
  for (const row of contents.rows) {
    const table = tables[Number(row.i)];
    const key = `table ${qualified(table)}`;
    print.set(key, `${print.get(key)} rows=${text(row, 'n')} hash=${text(row, 'h')}`);
  }
  return print;
}

/** The first object that differs between two fingerprints, in words; null when none does. */
export function fingerprintChange(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string | null {
  for (const [key, value] of after) {
    if (!before.has(key)) return `it created ${key}`;
    if (before.get(key) !== value) return `it changed ${key}`;
  }
  for (const key of before.keys()) if (!after.has(key)) return `it dropped ${key}`;
  return null;
}

const ENDED =
  'it ended the console’s own transaction (the console runs no BEGIN, COMMIT or ROLLBACK)';

async function end(runner: StatementRunner, how: 'COMMIT' | 'ROLLBACK'): Promise<void> {
  try {
    await runner.run(how, 0);
  } catch (err) {
    if (/no transaction is active/i.test(errorMessage(err))) throw new TransactionRefusal(ENDED);
    throw err;
  }
}

async function rollbackQuietly(runner: StatementRunner): Promise<void> {
  await runner.run('ROLLBACK', 0).catch(() => undefined);
}

/**
 * A cancel can land after DuckDB ran BEGIN but before the run returns: the run throws, yet the
 * transaction is open, and every later text would fail to begin its own.
 */
async function begin(runner: StatementRunner, sql: string, signal?: AbortSignal): Promise<void> {
  try {
    await runner.run(sql, 0, signal);
  } catch (err) {
    await rollbackQuietly(runner);
    throw err;
  }
}

/**
 * Runs `body` (one statement) in a read-only transaction, then rolls it back: DuckDB itself
 * refuses any write, and nothing the statement did (a temporary table included) outlives it.
 */
export async function inReadOnlyTransaction<T>(
  runner: StatementRunner,
  body: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  await begin(runner, 'BEGIN TRANSACTION READ ONLY', signal);
  let result: T;
  try {
    result = await body();
  } catch (err) {
    await rollbackQuietly(runner);
    throw err;
  }
  await end(runner, 'ROLLBACK');
  return result;
}

/**
 * Runs `body` (one statement) in a transaction that commits only when nothing outside `targets`
 * (lower-cased table or view names) differs afterwards; otherwise it is rolled back and a
 * TransactionRefusal says what the statement changed.
 */
export async function inCheckedWriteTransaction<T>(
  runner: StatementRunner,
  targets: readonly string[],
  body: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const except = new Set(targets.map((t) => t.toLowerCase()));
  await begin(runner, 'BEGIN TRANSACTION', signal);
  let result: T;
  try {
    const before = await catalogFingerprint(runner, except);
    result = await body();
    const change = fingerprintChange(before, await catalogFingerprint(runner, except));
    if (change) throw new TransactionRefusal(change);
  } catch (err) {
    await rollbackQuietly(runner);
    throw err;
  }
  await end(runner, 'COMMIT');
  return result;
}

/** DuckDB's refusal of a write inside a read-only transaction. */
export function isReadOnlyRefusal(message: string): boolean {
  return /transaction is launched in read-only mode/i.test(message);
}
