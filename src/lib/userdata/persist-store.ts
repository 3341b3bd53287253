// Where user tables are kept between visits: an IndexedDB store in the browser
// (persist-idb.ts), an in-memory one in tests. Values come back unchecked (`unknown`).
import type { StoredTable } from './persist-entry.ts';

export interface TableStore {
  keys(): Promise<string[]>;
  get(key: string): Promise<unknown>;
  put(entry: StoredTable): Promise<void>;
  /**
   * Puts `entry` only while its table's stored entry is still the one saved at `expected` (null:
   * none stored), in one transaction, so another tab's write in between is never overwritten;
   * false when it was not put.
   */
  putIfUnchanged(entry: StoredTable, expected: string | null): Promise<boolean>;
  /** Deletes `key` only while its stored entry is the one saved at `expected`. */
  deleteIfUnchanged(key: string, expected: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
}

/** When a stored value was saved (its `savedAt`), or null for none or a value without one. */
export function savedAtOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || !('savedAt' in value)) return null;
  return typeof value.savedAt === 'string' ? value.savedAt : null;
}

/** A store held in memory; `raw` lets a test plant an entry the checks must refuse. */
export class MemoryTableStore implements TableStore {
  readonly raw = new Map<string, unknown>();
  /** When set, `put` throws it (a full quota, say). */
  failPut: Error | null = null;

  keys(): Promise<string[]> {
    return Promise.resolve([...this.raw.keys()].sort());
  }
  get(key: string): Promise<unknown> {
    return Promise.resolve(this.raw.get(key));
  }
  put(entry: StoredTable): Promise<void> {
    if (this.failPut) return Promise.reject(this.failPut);
    this.raw.set(entry.table, entry);
    return Promise.resolve();
  }
  async putIfUnchanged(entry: StoredTable, expected: string | null): Promise<boolean> {
    if (savedAtOf(this.raw.get(entry.table)) !== expected) return false;
    await this.put(entry);
    return true;
  }
  deleteIfUnchanged(key: string, expected: string): Promise<boolean> {
    if (savedAtOf(this.raw.get(key)) !== expected) return Promise.resolve(false);
    this.raw.delete(key);
    return Promise.resolve(true);
  }
  delete(key: string): Promise<void> {
    this.raw.delete(key);
    return Promise.resolve();
  }
  clear(): Promise<void> {
    this.raw.clear();
    return Promise.resolve();
  }
}

/**
 * The store `make` gives, made on first use: the browser's IndexedDB store is then a chunk of its
 * own, off the first screen's path (restoring starts only once DuckDB is up).
 */
export class LazyTableStore implements TableStore {
  private store: Promise<TableStore> | null = null;
  constructor(private readonly make: () => Promise<TableStore>) {}
  private use<T>(act: (store: TableStore) => Promise<T>): Promise<T> {
    this.store ??= this.make();
    return this.store.then(act);
  }
  keys = () => this.use((s) => s.keys());
  get = (key: string) => this.use((s) => s.get(key));
  put = (entry: StoredTable) => this.use((s) => s.put(entry));
  putIfUnchanged = (entry: StoredTable, expected: string | null) =>
    this.use((s) => s.putIfUnchanged(entry, expected));
  deleteIfUnchanged = (key: string, expected: string) =>
    this.use((s) => s.deleteIfUnchanged(key, expected));
  delete = (key: string) => this.use((s) => s.delete(key));
  clear = () => this.use((s) => s.clear());
}
