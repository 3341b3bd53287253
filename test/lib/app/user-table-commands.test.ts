import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import {
  declareBenchmark,
  loadUserTable,
  NoDatabaseError,
  removeAllTables,
  removeUserTables,
  undeclareBenchmark,
  type TableServices,
} from '../../../src/lib/app/user-table-commands.ts';
import { inspectUserFile } from '../../../src/lib/userdata/inspect.ts';
import { planFrom } from '../../../src/lib/userdata/load.ts';
import { MemoryTableStore } from '../../../src/lib/userdata/persist-store.ts';
import { userTablesQuery } from '../../../src/lib/query/user-tables.ts';
import { userBenchmarksQuery } from '../../../src/lib/query/user-benchmarks.ts';
import { decodeStoredTable } from '../../../src/lib/userdata/persist-entry.ts';
import { withPart } from '../../../src/lib/userdata/benchmark-decl.ts';
import { suggestDecl } from '../../../src/lib/userdata/benchmark-rows.ts';
import { GOOD_DIR, fixture } from '../userdata/helpers.ts';

const opened: Catalog[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.engine.close();
});

/** The services the commands write through, counting the invalidations they announce. */
async function services(): Promise<TableServices & { changes: number; catalog: Catalog }> {
  const catalog = new Catalog(await openNodeEngine());
  opened.push(catalog);
  return withCatalog(catalog);
}

function withCatalog<C extends Catalog | null>(catalog: C) {
  return {
    catalog,
    tableStore: new MemoryTableStore(),
    userFiles: new Map<string, string>(),
    keptHere: new Map<string, string>(),
    changes: 0,
    dataChanged() {
      this.changes++;
    },
  };
}

const names = async (catalog: Catalog) => (await catalog.run(userTablesQuery())).map((t) => t.name);

async function load(s: TableServices, file: string, table: string) {
  const source = fixture(GOOD_DIR, file);
  const plan = { ...planFrom(await inspectUserFile(source)), table };
  return loadUserTable(s, source, plan);
}

describe('the user-table commands', () => {
  it('load a file into DuckDB, keep it, remember its file and invalidate once', async () => {
    const s = await services();
    const { result, unkept } = await load(s, 'records.csv', 'user_a');
    expect(result).toMatchObject({ table: 'user_a', file: 'records.csv' });
    expect(unkept).toBeNull();
    expect(await names(s.catalog)).toEqual(['user_a']);
    expect(await s.tableStore.keys()).toEqual(['user_a']);
    expect(s.userFiles.get('user_a')).toBe('records.csv');
    expect(s.changes).toBe(1);
  });

  it('invalidate after a failed load too, and leave no table behind', async () => {
    const s = await services();
    const source = fixture(GOOD_DIR, 'records.csv');
    const plan = { ...planFrom(await inspectUserFile(source)), table: 'not a name' };
    await expect(loadUserTable(s, source, plan)).rejects.toThrow(/records\.csv/);
    expect(await names(s.catalog)).toEqual([]);
    expect(s.changes).toBe(1);
  });

  it('remove named tables, or all of them, from DuckDB and the store', async () => {
    const s = await services();
    await load(s, 'records.csv', 'user_a');
    await load(s, 'records.jsonl', 'user_b');
    expect(await removeUserTables(s, ['user_a'])).toEqual(['user_a']);
    expect(await names(s.catalog)).toEqual(['user_b']);
    expect(s.userFiles.has('user_a')).toBe(false);
    expect(await removeAllTables(s, ['user_b'])).toEqual(['user_b']);
    expect(await names(s.catalog)).toEqual([]);
    expect(await s.tableStore.keys()).toEqual([]);
    expect(s.changes).toBe(4);
  });

  it('say DuckDB is not ready rather than write nowhere', async () => {
    const s = withCatalog(null);
    await expect(removeUserTables(s, ['user_a'])).rejects.toBeInstanceOf(NoDatabaseError);
  });

  it('declare a benchmark: checked, recorded, kept beside the file; a bad one changes nothing', async () => {
    const s = await services();
    await load(s, 'own-benchmark.jsonl', 'user_own');
    const decl = suggestDecl(['memory', 'query', 'gold', 'fields.id', 'fields.category']);
    const bad = withPart(decl, 'query.gold', 'fields.category');
    await expect(declareBenchmark(s, 'user_own', bad)).rejects.toThrow(
      'user_own line 51: query.gold (fields.category): "family" names no memory of user_own',
    );
    expect(await s.catalog.run(userBenchmarksQuery())).toEqual([]);
    expect(s.changes).toBe(2);
    const { rows, unkept } = await declareBenchmark(s, 'user_own', decl);
    expect([rows.memories.length, rows.queries.length, unkept]).toEqual([50, 10, null]);
    expect((await s.catalog.run(userBenchmarksQuery())).map((r) => r.name)).toEqual(['user_own']);
    const kept = decodeStoredTable(await s.tableStore.get('user_own'), 'user_own').benchmark;
    expect(JSON.parse(kept ?? 'null')).toEqual(decl);
    expect(s.changes).toBe(3);
    expect(await undeclareBenchmark(s, 'user_own')).toBeNull();
    expect(await s.catalog.run(userBenchmarksQuery())).toEqual([]);
    expect(decodeStoredTable(await s.tableStore.get('user_own'), 'user_own').benchmark).toBeNull();
    expect(await names(s.catalog)).toEqual(['user_own']);
    await declareBenchmark(s, 'user_own', decl);
    await removeUserTables(s, ['user_own']);
    expect(await s.catalog.run(userBenchmarksQuery())).toEqual([]);
  });
});
