// Writes to DuckDB are named commands: each changes the reader's tables through the catalog the
// services hold, and then says the data changed (whether it worked or not), so that every query
// is asked again. Pages call these; they never hold the catalog.
import type { Catalog } from '../db/catalog.ts';
import type { ByteSource } from '../userdata/byte-source.ts';
import { loadUserFile, type LoadPlan, type LoadResult } from '../userdata/load.ts';
import type { TableStore } from '../userdata/persist-store.ts';
import { keepUserTable, removeAllUserTables, removeUserTable } from '../userdata/persist-keep.ts';
import type { UserBenchmarkDecl } from '../userdata/benchmark-decl.ts';
import type { UserBenchmarkRows } from '../userdata/benchmark-rows.ts';
import type { RecordOptions } from '../userdata/records.ts';

/** What the commands need of the app's services (AppServices has it all). */
export interface TableServices {
  readonly catalog: Catalog | null;
  readonly tableStore: TableStore;
  /** The file behind each table the reader loaded, to load again if DuckDB dies. */
  readonly userFiles: Map<string, string>;
  /** When the stored entry of each table this tab kept or restored was saved: what it may replace. */
  readonly keptHere: Map<string, string>;
  dataChanged(): void;
}

export class NoDatabaseError extends Error {
  constructor() {
    super('DuckDB is not ready yet');
    this.name = 'NoDatabaseError';
  }
}

export function catalogOf(services: TableServices): Catalog {
  if (!services.catalog) throw new NoDatabaseError();
  return services.catalog;
}

export interface LoadedTable {
  result: LoadResult;
  /** Why the table is not kept in this browser for the next visit, or null when it is. */
  unkept: string | null;
}

/** "Load into DuckDB": the file into `plan.table`, then kept in this browser's store. */
export async function loadUserTable(
  services: TableServices,
  source: ByteSource,
  plan: LoadPlan,
  options: RecordOptions = {},
): Promise<LoadedTable> {
  try {
    const result = await loadUserFile(catalogOf(services), source, plan, options);
    services.userFiles.set(result.table, result.file);
    const expected = services.keptHere.get(plan.table) ?? null;
    const kept = await keepUserTable(services.tableStore, source, plan, expected);
    if (kept.savedAt) services.keptHere.set(plan.table, kept.savedAt);
    else services.keptHere.delete(plan.table);
    return { result, unkept: kept.unkept };
  } finally {
    services.dataChanged();
  }
}

/**
 * Every name a new table must not take: the tables loaded in this tab and those kept in this
 * browser's store, which another tab may have saved since this one opened.
 */
export async function takenTableNames(
  services: TableServices,
  loaded: Iterable<string>,
): Promise<Set<string>> {
  const stored = await services.tableStore.keys().catch(() => []);
  return new Set([...loaded, ...stored]);
}

/** Drops each named table from DuckDB and from this browser's store; returns their names. */
export async function removeUserTables(
  services: TableServices,
  names: readonly string[],
): Promise<string[]> {
  try {
    const catalog = catalogOf(services);
    for (const name of names) {
      // Loaded in this tab: its stored copy goes only if it is the one this tab kept. Listed
      // from the store alone (not loaded here), the reader removes that stored copy.
      const expected = services.userFiles.has(name)
        ? (services.keptHere.get(name) ?? null)
        : undefined;
      await removeUserTable(catalog, services.tableStore, name, expected);
      services.userFiles.delete(name);
      services.keptHere.delete(name);
    }
    return [...names];
  } finally {
    services.dataChanged();
  }
}

/** Every kept table and every `loaded` one, dropped and forgotten; returns their names. */
export async function removeAllTables(
  services: TableServices,
  loaded: readonly string[],
): Promise<string[]> {
  try {
    const gone = await removeAllUserTables(catalogOf(services), services.tableStore, loaded);
    for (const name of gone) services.userFiles.delete(name);
    services.keptHere.clear();
    return gone;
  } finally {
    services.dataChanged();
  }
}

export interface DeclaredBenchmark {
  rows: UserBenchmarkRows;
  /** Why the declaration is not kept in this browser for the next visit, or null when it is. */
  unkept: string | null;
}

/**
 * "Declare a benchmark": `decl` checked against every row of `table` (a row that does not fit
 * throws, naming it, and nothing changes), then recorded in DuckDB and kept beside the table.
 */
export async function declareBenchmark(
  services: TableServices,
  table: string,
  decl: UserBenchmarkDecl,
): Promise<DeclaredBenchmark> {
  try {
    const { declareUserBenchmark, keepDeclaration } = await import('../userdata/declare.ts');
    const rows = await declareUserBenchmark(catalogOf(services), table, decl);
    return { rows, unkept: await keepDeclaration(services.tableStore, table, decl) };
  } finally {
    services.dataChanged();
  }
}

/** "Remove declaration": the table is a benchmark no more, here and in this browser's store. */
export async function undeclareBenchmark(
  services: TableServices,
  table: string,
): Promise<string | null> {
  try {
    const { undeclareUserBenchmark, keepDeclaration } = await import('../userdata/declare.ts');
    await undeclareUserBenchmark(catalogOf(services), table);
    return await keepDeclaration(services.tableStore, table, null);
  } finally {
    services.dataChanged();
  }
}
