// Keeping user tables between visits: saved after a load (persist-keep.ts), loaded again by the
// same loader after DuckDB starts. One table that cannot be restored never stops the others.
import type { Catalog } from '../db/catalog.ts';
import { ROLLBACK_SQL, declareBenchmarkStatements } from '../query/user-tables.ts';
import type { SqlFragment } from '../query/sql.ts';
import { plural } from '../common/plural.ts';
import { errorMessage } from '../common/error-message.ts';
import { blobSource } from './byte-source.ts';
import { loadUserFile, type LoadResult } from './load.ts';
import { decodeStoredTable, planOf, StoredTableError } from './persist-entry.ts';
import type { TableStore } from './persist-store.ts';

export interface StoredTableInfo {
  table: string;
  file: string;
  bytes: number;
  savedAt: string;
}

export interface StoredList {
  tables: StoredTableInfo[];
  /** Entries that cannot be read back, each naming its table. */
  broken: StoredTableError[];
}

export interface RestoreFailure {
  table: string;
  message: string;
}

/** Where restoring stands, for the page: counts while it runs, the outcome after. */
export interface RestoreStatus {
  phase: 'waiting' | 'restoring' | 'done';
  done: number;
  total: number;
  table: string;
  notice: string;
  failed: RestoreFailure[];
}

export const RESTORE_WAITING: Readonly<RestoreStatus> = Object.freeze({
  phase: 'waiting',
  done: 0,
  total: 0,
  table: '',
  notice: '',
  failed: [],
});

export interface RestoreOutcome {
  restored: LoadResult[];
  failed: RestoreFailure[];
  /** Each restored table's stored entry, by when it was saved. */
  kept: Map<string, string>;
}

export async function storedTables(store: TableStore): Promise<StoredList> {
  const tables: StoredTableInfo[] = [];
  const broken: StoredTableError[] = [];
  for (const key of await store.keys()) {
    try {
      const entry = decodeStoredTable(await store.get(key), key);
      tables.push({
        table: entry.table,
        file: entry.file,
        bytes: entry.bytes.size,
        savedAt: entry.savedAt,
      });
    } catch (err) {
      broken.push(
        err instanceof StoredTableError ? err : new StoredTableError(key, errorMessage(err)),
      );
    }
  }
  return { tables, broken };
}

/** Loads every stored table again, in the order they were saved. */
export async function restoreUserTables(
  catalog: Catalog,
  store: TableStore,
  onProgress: (done: number, total: number, table: string) => void = () => {},
): Promise<RestoreOutcome> {
  const keys = await store.keys();
  const restored: LoadResult[] = [];
  const failed: RestoreFailure[] = [];
  const kept = new Map<string, string>();
  const entries = [];
  for (const key of keys) {
    try {
      entries.push(decodeStoredTable(await store.get(key), key));
    } catch (err) {
      const message = err instanceof StoredTableError ? err.reason : errorMessage(err);
      failed.push({ table: key, message });
    }
  }
  entries.sort((a, b) => a.savedAt.localeCompare(b.savedAt) || a.table.localeCompare(b.table));
  for (const [i, entry] of entries.entries()) {
    onProgress(i, entries.length, entry.table);
    try {
      const loaded = await loadUserFile(
        catalog,
        blobSource(entry.file, entry.bytes),
        planOf(entry),
      );
      if (entry.benchmark !== null) {
        await runInTransaction(catalog, declareBenchmarkStatements(entry.table, entry.benchmark));
      }
      restored.push(loaded);
      kept.set(entry.table, entry.savedAt);
    } catch (err) {
      failed.push({ table: entry.table, message: errorMessage(err) });
    }
  }
  onProgress(entries.length, entries.length, '');
  return { restored, failed, kept };
}

/** Runs `statements` (one transaction), rolling back on a failure. */
export async function runInTransaction(catalog: Catalog, statements: readonly SqlFragment[]) {
  try {
    for (const statement of statements) {
      await catalog.engine.query(statement.sql, statement.params);
    }
  } catch (err) {
    await catalog.engine.query(ROLLBACK_SQL).catch(() => []);
    throw err;
  }
}

/** One line for the page after a restore. */
export function restoreNotice(outcome: RestoreOutcome): string {
  const n = outcome.restored.length;
  if (n === 0) return '';
  return `Restored ${plural(n, 'table')} from this browser: ${outcome.restored.map((r) => r.table).join(', ')}.`;
}
