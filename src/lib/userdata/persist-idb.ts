// The browser's TableStore: one IndexedDB object store of StoredTable entries keyed by table name.
import { openDatabase, requestResult, transactionDone } from '../common/idb.ts';
import type { StoredTable } from './persist-entry.ts';
import type { TableStore } from './persist-store.ts';

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
  async delete(key: string): Promise<void> {
    await this.run('readwrite', (s) => s.delete(key));
  }
  async clear(): Promise<void> {
    await this.run('readwrite', (s) => s.clear());
  }
}
