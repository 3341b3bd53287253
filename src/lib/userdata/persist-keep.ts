// Keeping a loaded table in this browser's store, and removing kept ones: what Your data's
// commands write (persist.ts restores them, on every start).
import type { Catalog } from '../db/catalog.ts';
import { dropUserTableStatements } from '../query/user-tables.ts';
import { storageMessage } from '../common/storage-error.ts';
import type { ByteSource } from './byte-source.ts';
import type { LoadPlan } from './load.ts';
import { storedTable } from './persist-entry.ts';
import type { TableStore } from './persist-store.ts';
import { runInTransaction } from './persist.ts';

async function fileBlob(source: ByteSource): Promise<Blob> {
  if (source.blob) return source.blob;
  const parts: BlobPart[] = [];
  for await (const chunk of source.chunks()) parts.push(new Uint8Array(chunk));
  return new Blob(parts);
}

export interface Kept {
  /** What to tell the reader when the table was not kept, or null when it was. */
  unkept: string | null;
  /** When the stored entry was saved, when it was. */
  savedAt: string | null;
}

/**
 * Keeps the file and its plan so the table comes back on the next visit, unless the store's entry
 * for that name is no longer the one this tab knows (`expected`, null for none): another tab's
 * table is never overwritten. A refusal (another tab's, or the browser's full quota) is said.
 */
export async function keepUserTable(
  store: TableStore,
  source: ByteSource,
  plan: LoadPlan,
  expected: string | null,
): Promise<Kept> {
  try {
    const entry = storedTable(plan, source.name, await fileBlob(source));
    if (await store.putIfUnchanged(entry, expected))
      return { unkept: null, savedAt: entry.savedAt };
    return {
      unkept: `${plan.table} is kept in this browser by another tab: this one stays in this tab only. Load it under another name to keep both.`,
      savedAt: null,
    };
  } catch (err) {
    return {
      unkept: `${storageMessage(err, `${plan.table} (from ${source.name})`)}; it stays loaded until this tab closes.`,
      savedAt: null,
    };
  }
}

/**
 * Drops the table from DuckDB and from this browser's store: there, with `expected`, only while
 * the stored entry is the one saved then (null: this tab keeps none, so it is left alone).
 */
export async function removeUserTable(
  catalog: Catalog,
  store: TableStore,
  table: string,
  expected?: string | null,
): Promise<void> {
  await runInTransaction(catalog, dropUserTableStatements(table));
  if (expected === undefined) await store.delete(table);
  else if (expected !== null) await store.deleteIfUnchanged(table, expected);
}

/** Every stored table and every other `loaded` one, dropped and forgotten; returns their names. */
export async function removeAllUserTables(
  catalog: Catalog,
  store: TableStore,
  loaded: readonly string[],
): Promise<string[]> {
  const names = [...new Set([...loaded, ...(await store.keys())])];
  for (const name of names) await removeUserTable(catalog, store, name);
  return names;
}
