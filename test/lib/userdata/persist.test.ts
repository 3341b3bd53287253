import { afterEach, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { inspectUserFile } from '../../../src/lib/userdata/inspect.ts';
import { loadUserFile, planFrom } from '../../../src/lib/userdata/load.ts';
import { MemoryTableStore } from '../../../src/lib/userdata/persist-store.ts';
import {
  restoreNotice,
  restoreUserTables,
  storedTables,
} from '../../../src/lib/userdata/persist.ts';
import {
  keepUserTable,
  removeAllUserTables,
  removeUserTable,
} from '../../../src/lib/userdata/persist-keep.ts';
import { userTablesQuery } from '../../../src/lib/query/user-tables.ts';
import { userBenchmarksQuery } from '../../../src/lib/query/user-benchmarks.ts';
import {
  fieldChoices,
  readUserTableRows,
  suggestDecl,
} from '../../../src/lib/userdata/benchmark-rows.ts';
import { declareUserBenchmark, keepDeclaration } from '../../../src/lib/userdata/declare.ts';
import { readDeclaration } from '../../../src/lib/protocol-kit/user-benchmark.ts';
import { blobSource, bytesSource, type ByteSource } from '../../../src/lib/userdata/byte-source.ts';
import { decodeStoredTable } from '../../../src/lib/userdata/persist-entry.ts';
import { GOOD_DIR, fixture } from './helpers.ts';
import { catalogWithInmind, tableCounts } from './duckdb.ts';

const opened: Catalog[] = [];
async function freshCatalog(): Promise<Catalog> {
  const catalog = await catalogWithInmind();
  opened.push(catalog);
  return catalog;
}
afterEach(async () => {
  for (const c of opened.splice(0)) await c.engine.close();
});

/** What MyDataPage does on "Load into DuckDB": load, then keep. */
async function loadAndKeep(catalog: Catalog, store: MemoryTableStore, source: ByteSource) {
  const plan = planFrom(await inspectUserFile(source));
  const result = await loadUserFile(catalog, source, plan);
  return { result, kept: (await keepUserTable(store, source, plan, null)).unkept };
}

describe('user tables kept in the browser', () => {
  it('are restored into a fresh DuckDB exactly as loaded, with their mapping', async () => {
    const store = new MemoryTableStore();
    const first = await freshCatalog();
    await loadAndKeep(first, store, fixture(GOOD_DIR, 'records.jsonl'));
    await loadAndKeep(first, store, fixture(GOOD_DIR, 'submission-ranked.jsonl'));
    const before = await first.query('SELECT * FROM user_records ORDER BY line');

    const second = await freshCatalog();
    const progress: string[] = [];
    const outcome = await restoreUserTables(second, store, (done, total, table) =>
      progress.push(`${done}/${total} ${table}`),
    );
    expect(outcome.failed).toEqual([]);
    expect(outcome.restored.map((r) => [r.table, r.rows])).toEqual([
      ['user_records', 5],
      ['user_submission_ranked', 6],
    ]);
    expect(progress).toEqual(['0/2 user_records', '1/2 user_submission_ranked', '2/2 ']);
    expect(await second.query('SELECT * FROM user_records ORDER BY line')).toEqual(before);
    const meta = await second.run(userTablesQuery());
    expect(meta.map((m) => [m.name, m.kind, m.mapping])).toEqual([
      ['user_records', 'records', expect.stringContaining('query ← question')],
      ['user_submission_ranked', 'inmind-submission', ''],
    ]);
    expect(restoreNotice(outcome)).toBe(
      'Restored 2 tables from this browser: user_records, user_submission_ranked.',
    );
  });

  it('lists sizes, and a corrupt entry is named while the others are restored', async () => {
    const store = new MemoryTableStore();
    const catalog = await freshCatalog();
    await loadAndKeep(catalog, store, fixture(GOOD_DIR, 'records.csv'));
    store.raw.set('user_broken', { version: 1, table: 'user_broken', format: 'jsonl' });
    const list = await storedTables(store);
    expect(list.tables.map((t) => [t.table, t.file])).toEqual([['user_records', 'records.csv']]);
    expect(list.tables[0].bytes).toBeGreaterThan(0);
    expect(list.broken.map((b) => b.table)).toEqual(['user_broken']);

    const outcome = await restoreUserTables(await freshCatalog(), store);
    expect(outcome.restored.map((r) => r.table)).toEqual(['user_records']);
    expect(outcome.failed).toEqual([
      {
        table: 'user_broken',
        message: 'the copy kept in this browser cannot be read (unknown kind undefined)',
      },
    ]);
    expect(
      restoreNotice({ restored: outcome.restored.slice(0, 1), failed: [], kept: new Map() }),
    ).toBe('Restored 1 table from this browser: user_records.');
  });

  it('a stored file that no longer loads is named and nothing else changes', async () => {
    const store = new MemoryTableStore();
    const catalog = await freshCatalog();
    const { result } = await loadAndKeep(catalog, store, fixture(GOOD_DIR, 'records.jsonl'));
    const entry = await store.get(result.table);
    if (typeof entry !== 'object' || entry === null) throw new Error('no entry');
    store.raw.set(result.table, { ...entry, bytes: new Blob(['{"question": [1]}\n']) });
    const target = await freshCatalog();
    const outcome = await restoreUserTables(target, store);
    expect(outcome.restored).toEqual([]);
    expect(outcome.failed[0].table).toBe('user_records');
    expect(outcome.failed[0].message).toMatch(/^records\.jsonl:1 at question: expected a string/);
    expect(await tableCounts(target)).not.toHaveProperty('user_records');
  });

  it('a picked file is kept as its own Blob, a fetched one as its bytes', async () => {
    const store = new MemoryTableStore();
    const file = new Blob(['{"memory":"one"}\n']);
    const plan = planFrom(await inspectUserFile(blobSource('picked.jsonl', file)));
    const first = await keepUserTable(store, blobSource('picked.jsonl', file), plan, null);
    expect(first.unkept).toBeNull();
    expect(decodeStoredTable(await store.get(plan.table), plan.table).bytes).toBe(file);
    const fetched = bytesSource('fetched.jsonl', '{"memory":"two"}\n');
    expect((await keepUserTable(store, fetched, plan, first.savedAt)).unkept).toBeNull();
    const kept = decodeStoredTable(await store.get(plan.table), plan.table);
    expect(await kept.bytes.text()).toBe('{"memory":"two"}\n');
  });

  it('never replaces the entry another tab saved after this one opened, and says so', async () => {
    const store = new MemoryTableStore();
    const plan = planFrom(await inspectUserFile(bytesSource('good.jsonl', '{"memory":"a"}\n')));
    const tabA = await keepUserTable(
      store,
      bytesSource('good.jsonl', '{"memory":"a"}\n'),
      plan,
      null,
    );
    // Tab B opened before A kept it: B knows of no entry for that name.
    const tabB = await keepUserTable(
      store,
      bytesSource('good.jsonl', '{"memory":"b"}\n'),
      plan,
      null,
    );
    expect(tabB).toEqual({
      unkept: `${plan.table} is kept in this browser by another tab: this one stays in this tab only. Load it under another name to keep both.`,
      savedAt: null,
    });
    const stored = decodeStoredTable(await store.get(plan.table), plan.table);
    expect(stored.savedAt).toBe(tabA.savedAt);
    expect(await stored.bytes.text()).toBe('{"memory":"a"}\n');
  });

  it('a full quota is reported with the table, and the table stays loaded', async () => {
    const store = new MemoryTableStore();
    store.failPut = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const catalog = await freshCatalog();
    const { kept } = await loadAndKeep(catalog, store, fixture(GOOD_DIR, 'records.jsonl'));
    expect(kept).toBe(
      'browser storage full: user_records (from records.jsonl) could not be saved (free space or allow this site more storage); it stays loaded until this tab closes.',
    );
    expect(await catalog.count('user_records')).toBe(5);
  });

  it('removing a table drops it from DuckDB and the store; remove all forgets every entry', async () => {
    const store = new MemoryTableStore();
    const catalog = await freshCatalog();
    await loadAndKeep(catalog, store, fixture(GOOD_DIR, 'records.jsonl'));
    await loadAndKeep(catalog, store, fixture(GOOD_DIR, 'submission.jsonl'));
    await removeUserTable(catalog, store, 'user_records');
    expect(await store.keys()).toEqual(['user_submission']);
    expect(await tableCounts(catalog)).not.toHaveProperty('user_records');
    expect((await catalog.run(userTablesQuery())).map((m) => m.name)).toEqual(['user_submission']);
    store.raw.set('user_broken', 'garbage');
    expect(await removeAllUserTables(catalog, store, ['user_submission'])).toEqual([
      'user_submission',
      'user_broken',
    ]);
    expect(await store.keys()).toEqual([]);
    expect(await catalog.run(userTablesQuery())).toEqual([]);
  });

  it('a declared benchmark is kept beside its table and comes back with it', async () => {
    const store = new MemoryTableStore();
    const first = await freshCatalog();
    const { result } = await loadAndKeep(first, store, fixture(GOOD_DIR, 'own-benchmark.jsonl'));
    const decl = suggestDecl(fieldChoices(await readUserTableRows(first, result.table)));
    await declareUserBenchmark(first, result.table, decl);
    expect(await keepDeclaration(store, result.table, decl)).toBeNull();
    expect(await keepDeclaration(store, 'user_gone', decl)).toContain('is not kept');

    const second = await freshCatalog();
    expect((await restoreUserTables(second, store)).failed).toEqual([]);
    expect(await readDeclaration(second, result.table)).toEqual(decl);
    expect(await second.run(userBenchmarksQuery())).toHaveLength(1);

    // A declaration damaged in the store comes back as it is and is refused, named, when read.
    const entry = decodeStoredTable(store.raw.get(result.table), result.table);
    store.raw.set(result.table, { ...entry, benchmark: '{"version": 9}' });
    const third = await freshCatalog();
    expect((await restoreUserTables(third, store)).failed).toEqual([]);
    await expect(readDeclaration(third, result.table)).rejects.toThrow(
      "user_own_benchmark's declaration: declaration version 9, this MemLens reads 1",
    );
  });
});
