// IndexedDB's callbacks as promises, shared by the vector cache, the user-table store and the
// Hub model store.

/** The parts of an IDBRequest these helpers use. */
export interface RequestLike<T> {
  onsuccess: ((ev: Event) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  readonly result: T;
  readonly error: DOMException | null;
}

/** The parts of an IDBTransaction these helpers use. */
export interface TransactionLike {
  oncomplete: ((ev: Event) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  onabort: ((ev: Event) => unknown) | null;
  readonly error: DOMException | null;
}

/** The request's result once it succeeds; its error (or a plain one) when it fails. */
export function requestResult<T>(request: RequestLike<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/** Settles when the transaction commits; rejects when it fails or is aborted. */
export function transactionDone(tx: TransactionLike): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * The database `name` at `version`, each of `stores` made when missing; rejects when it cannot be
 * opened, or when another tab holds it open at an older version.
 */
export function openDatabase(
  factory: IDBFactory,
  name: string,
  version: number,
  stores: readonly string[],
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const store of stores)
        if (!db.objectStoreNames.contains(store)) db.createObjectStore(store);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () =>
      reject(request.error ?? new Error(`IndexedDB ${name} could not be opened`));
    request.onblocked = () => reject(new Error(`IndexedDB ${name} is blocked by another tab`));
  });
}
