// Embedding vectors in IndexedDB, keyed by vector-cache-key.ts. Each batch is written in one
// transaction, so a run that stops midway leaves whole batches or nothing.
import { openDatabase, requestResult, transactionDone } from '../common/idb.ts';

export const VECTOR_DB_NAME = 'memlens-vectors';
const STORE = 'vectors';

/** What an embedder needs from a cache; VectorCache is the IndexedDB one. */
export interface VectorStore {
  getMany(keys: readonly string[]): Promise<(Float32Array | undefined)[]>;
  putMany(entries: readonly { key: string; vector: Float32Array }[]): Promise<void>;
}

/** The cache as the embedder hub owns it: it also counts, clears and closes. */
export interface OwnedVectorStore extends VectorStore {
  count(): Promise<number>;
  clear(): Promise<void>;
  close(): void;
}

export class VectorCache implements OwnedVectorStore {
  private constructor(private readonly db: IDBDatabase) {}

  static async open(name = VECTOR_DB_NAME, factory = indexedDB): Promise<VectorCache> {
    return new VectorCache(await openDatabase(factory, name, 1, [STORE]));
  }

  /** The vector for each key, or undefined where there is none (or a stored value is not one). */
  async getMany(keys: readonly string[]): Promise<(Float32Array | undefined)[]> {
    const tx = this.db.transaction(STORE, 'readonly');
    const store = tx.objectStore(STORE);
    const requests = keys.map((key) => store.get(key));
    await transactionDone(tx);
    return requests.map((r) => (r.result instanceof Float32Array ? r.result : undefined));
  }

  /** Resolves once every entry is durably stored, all in one transaction. */
  async putMany(entries: readonly { key: string; vector: Float32Array }[]): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    for (const { key, vector } of entries) store.put(vector, key);
    await transactionDone(tx);
  }

  async count(): Promise<number> {
    const request = this.db.transaction(STORE, 'readonly').objectStore(STORE).count();
    await requestResult(request);
    return request.result;
  }

  async clear(): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await transactionDone(tx);
  }

  close(): void {
    this.db.close();
  }
}
