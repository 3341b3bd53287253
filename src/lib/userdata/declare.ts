// Declaring a loaded table a benchmark, for the Your data page's command and the CLI alike; loaded
// with the first declaration, not with the page.
import type { Catalog } from '../db/catalog.ts';
import { declareBenchmarkStatements, undeclareBenchmarkStatements } from '../query/user-tables.ts';
import { storageMessage } from '../common/storage-error.ts';
import type { UserBenchmarkDecl } from './benchmark-decl.ts';
import { checkDeclaration, type UserBenchmarkRows } from './benchmark-rows.ts';
import { decodeStoredTable } from './persist-entry.ts';
import type { TableStore } from './persist-store.ts';
import { runInTransaction } from './persist.ts';

/**
 * Declares `table` a benchmark: checks `decl` against every row first, so a declaration that does
 * not fit changes nothing (the table stays as loaded); returns the checked rows.
 */
export async function declareUserBenchmark(
  catalog: Catalog,
  table: string,
  decl: UserBenchmarkDecl,
): Promise<UserBenchmarkRows> {
  const rows = await checkDeclaration(catalog, table, decl);
  await runInTransaction(catalog, declareBenchmarkStatements(table, JSON.stringify(decl)));
  return rows;
}

/** Forgets the declaration over `table` in DuckDB; the table stays as loaded. */
export async function undeclareUserBenchmark(catalog: Catalog, table: string): Promise<void> {
  await runInTransaction(catalog, undeclareBenchmarkStatements(table));
}

/**
 * Keeps `decl` beside the table's stored file, so the benchmark comes back with it; null clears
 * it. Returns what to tell the reader when the table is not kept or the browser refused.
 */
export async function keepDeclaration(
  store: TableStore,
  table: string,
  decl: UserBenchmarkDecl | null,
): Promise<string | null> {
  try {
    const kept = await store.get(table);
    if (kept === undefined) {
      return `${table} is not kept in this browser: the benchmark lasts until this tab closes.`;
    }
    const benchmark = decl === null ? null : JSON.stringify(decl);
    await store.put({ ...decodeStoredTable(kept, table), benchmark });
    return null;
  } catch (err) {
    return `${storageMessage(err, `the declaration of ${table}`)}; it lasts until this tab closes.`;
  }
}
