import { describe, expect, it } from 'vitest';
import { MemoryTableStore } from '../../../src/lib/userdata/persist-store.ts';
import { storedTable } from '../../../src/lib/userdata/persist-entry.ts';
import { emptyMapping } from '../../../src/lib/userdata/mapping.ts';

const entry = (table: string) =>
  storedTable(
    { table, format: 'csv', kind: 'records', mapping: emptyMapping() },
    `${table}.csv`,
    new Blob(['a\n1\n']),
  );

describe('the in-memory table store', () => {
  it('keeps entries by table name, sorted, and forgets them', async () => {
    const store = new MemoryTableStore();
    await store.put(entry('user_b'));
    await store.put(entry('user_a'));
    expect(await store.keys()).toEqual(['user_a', 'user_b']);
    expect(await store.get('user_a')).toMatchObject({ file: 'user_a.csv' });
    await store.delete('user_a');
    expect(await store.keys()).toEqual(['user_b']);
    await store.clear();
    expect(await store.keys()).toEqual([]);
  });

  it('fails a put as a browser would when told to', async () => {
    const store = new MemoryTableStore();
    store.failPut = new DOMException('quota', 'QuotaExceededError');
    await expect(store.put(entry('user_a'))).rejects.toThrow('quota');
    expect(await store.keys()).toEqual([]);
  });
});
