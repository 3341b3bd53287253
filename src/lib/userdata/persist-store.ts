// Where user tables are kept between visits: an IndexedDB store in the browser
// (persist-idb.ts), an in-memory one in tests. Values come back unchecked (`unknown`).
import type { StoredTable } from './persist-entry.ts';

export interface TableStore {
  keys(): Promise<string[]>;
  get(key: string): Promise<unknown>;
  put(entry: StoredTable): Promise<void>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
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
  delete(key: string): Promise<void> {
    this.raw.delete(key);
    return Promise.resolve();
  }
  clear(): Promise<void> {
    this.raw.clear();
    return Promise.resolve();
  }
}
