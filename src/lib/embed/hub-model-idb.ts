// The browser's HubStore: one IndexedDB database, the digests recorded on first download keyed by
// the reference (`hub:owner/name@commit`), and the downloaded files keyed by [reference, path].
import { openDatabase, requestResult, transactionDone } from '../common/idb.ts';
import { isHubDigests, type HubDigests, type HubStore } from './hub-model.ts';

const DB_NAME = 'memlens-hub-models';
const DB_VERSION = 1;
const DIGESTS = 'digests';
const FILES = 'files';

export class IndexedDbHubStore implements HubStore {
  private db: Promise<IDBDatabase> | null = null;

  constructor(private readonly factory: IDBFactory) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= openDatabase(this.factory, DB_NAME, DB_VERSION, [DIGESTS, FILES]);
    this.db.catch(() => (this.db = null));
    return this.db;
  }

  private async run<T>(
    name: string,
    mode: IDBTransactionMode,
    act: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> {
    const tx = (await this.open()).transaction(name, mode);
    const result = requestResult(act(tx.objectStore(name)));
    await transactionDone(tx);
    return result;
  }

  async digests(base: string): Promise<HubDigests | null> {
    const value = await this.run(DIGESTS, 'readonly', (s): IDBRequest<unknown> => s.get(base));
    if (value === undefined) return null;
    if (!isHubDigests(value))
      throw new Error(`${base}: the digests kept in this browser are unreadable`);
    return value;
  }
  async saveDigests(base: string, digests: HubDigests): Promise<void> {
    await this.run(DIGESTS, 'readwrite', (s) => s.put(digests, base));
  }
  async file(base: string, path: string): Promise<Blob | null> {
    const value = await this.run(FILES, 'readonly', (s): IDBRequest<unknown> =>
      s.get([base, path]),
    );
    return value instanceof Blob ? value : null;
  }
  async putFile(base: string, path: string, blob: Blob): Promise<void> {
    await this.run(FILES, 'readwrite', (s) => s.put(blob, [base, path]));
  }
  async deleteFiles(base: string): Promise<void> {
    // Every [base, path] key: paths are strings, and any array sorts after every string.
    const range = IDBKeyRange.bound([base, ''], [base, []]);
    await this.run(FILES, 'readwrite', (s) => s.delete(range));
  }
}
