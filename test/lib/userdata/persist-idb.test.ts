import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbTableStore } from '../../../src/lib/userdata/persist-idb.ts';
import { decodeStoredTable, storedTable } from '../../../src/lib/userdata/persist-entry.ts';
import { emptyMapping } from '../../../src/lib/userdata/mapping.ts';

const entry = (table: string) =>
  storedTable(
    { table, format: 'jsonl', kind: 'records', mapping: { ...emptyMapping(), memory: ['text'] } },
    `${table}.jsonl`,
    new Blob(['{"text":"hi"}\n']),
  );

describe('IndexedDbTableStore', () => {
  it('keeps each table under its name, with its bytes, until deleted or cleared', async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbTableStore(factory);
    await store.put(entry('user_a'));
    await store.put(entry('user_b'));
    // A second store on the same browser (the next visit) reads what the first kept.
    const next = new IndexedDbTableStore(factory);
    expect((await next.keys()).sort()).toEqual(['user_a', 'user_b']);
    const back = decodeStoredTable(await next.get('user_a'), 'user_a');
    expect(back.file).toBe('user_a.jsonl');
    expect(await back.bytes.text()).toBe('{"text":"hi"}\n');
    await next.delete('user_a');
    expect(await next.keys()).toEqual(['user_b']);
    expect(await next.get('user_a')).toBeUndefined();
    await next.clear();
    expect(await next.keys()).toEqual([]);
  });

  it('two tabs: a put or delete that expected another entry changes nothing', async () => {
    const factory = new IDBFactory();
    const tabA = new IndexedDbTableStore(factory);
    const tabB = new IndexedDbTableStore(factory);
    const a = { ...entry('user_good'), savedAt: '2026-12-07T10:00:00.000Z' };
    const b = { ...entry('user_good'), savedAt: '2026-12-07T10:00:01.000Z' };
    expect(await tabA.putIfUnchanged(a, null)).toBe(true);
    // Tab B never saw A's table: it expected none.
    expect(await tabB.putIfUnchanged(b, null)).toBe(false);
    expect(await tabB.deleteIfUnchanged('user_good', b.savedAt)).toBe(false);
    expect(decodeStoredTable(await tabA.get('user_good'), 'user_good').savedAt).toBe(a.savedAt);
    // A replaces its own; then removes it.
    expect(await tabA.putIfUnchanged(b, a.savedAt)).toBe(true);
    expect(await tabA.deleteIfUnchanged('user_good', b.savedAt)).toBe(true);
    expect(await tabA.keys()).toEqual([]);
  });
});
