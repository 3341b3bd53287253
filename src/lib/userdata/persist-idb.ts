// The browser's TableStore: one IndexedDB object store of StoredTable entries keyed by table name.
import { openDatabase, requestResult, transactionDone } from '../common/idb.ts';
import type { StoredTable } from './persist-entry.ts';
import { savedAtOf, type TableStore } from './persist-store.ts';

const DB_NAME = 'memlens-user-tables';
const DB_VERSION = 1;
const STORE = 'tables';

export class IndexedDbTableStore implements TableStore {
  private db: Promise<IDBDatabase> | null = null;

  constructor(private readonly factory: IDBFactory) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= openDatabase(this.factory, DB_NAME, DB_VERSION, [STORE]);
    this.db.catch(() => (this.db = null));
    return this.db;
  }

  private async run<T>(
    mode: IDBTransactionMode,
    act: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> {
    const tx = (await this.open()).transaction(STORE, mode);
    const result = requestResult(act(tx.objectStore(STORE)));
    await transactionDone(tx);
    return result;
  }

  async keys(): Promise<string[]> {
    const keys = await this.run('readonly', (s) => s.getAllKeys());
    return keys.filter((k): k is string => typeof k === 'string');
  }
  get(key: string): Promise<unknown> {
    return this.run('readonly', (s): IDBRequest<unknown> => s.get(key));
  }
  async put(entry: StoredTable): Promise<void> {
    await this.run('readwrite', (s) => s.put(entry, entry.table));
  }
  /**
   * Reads the stored entry and writes (or deletes) in one readwrite transaction: IndexedDB runs
   * readwrite transactions on a store one at a time, across tabs, so nothing slips in between.
   */
  private async ifUnchanged(
    key: string,
    expected: string | null,
    act: (store: IDBObjectStore) => void,
  ): Promise<boolean> {
    const tx = (await this.open()).transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const done = transactionDone(tx);
    const request = store.get(key);
    // Acted on inside the success event, while the transaction is surely still active.
    const unchanged = new Promise<boolean>((resolve, reject) => {
      request.onsuccess = () => {
        const same = savedAtOf(request.result) === expected;
        if (same) act(store);
        resolve(same);
      };
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    });
    const [same] = await Promise.all([unchanged, done]);
    return same;
  }
  putIfUnchanged(entry: StoredTable, expected: string | null): Promise<boolean> {
    return this.ifUnchanged(entry.table, expected, (s) => s.put(entry, entry.table));
  }
  deleteIfUnchanged(key: string, expected: string): Promise<boolean> {
    return this.ifUnchanged(key, expected, (s) => s.delete(key));
  }
  async delete(key: string): Promise<void> {
    await this.run('readwrite', (s) => s.delete(key));
  }
  async clear(): Promise<void> {
    await this.run('readwrite', (s) => s.clear());
  }
}
