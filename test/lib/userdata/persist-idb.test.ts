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
});
