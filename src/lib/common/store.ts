// One value that listeners follow, in Svelte's store contract (`subscribe` calls the listener at
// once and returns the unsubscriber), so a page reads a holder of one as `$holder`. Every `set`
// notifies, equal or not: the holders always set a fresh object.

export type Listener<T> = (value: T) => void;
export type Unsubscribe = () => void;

export interface Readable<T> {
  readonly subscribe: (listener: Listener<T>) => Unsubscribe;
  readonly get: () => T;
}

export interface Store<T> extends Readable<T> {
  readonly set: (value: T) => void;
  readonly update: (next: (value: T) => T) => void;
  /** Drops every listener; later sets are ignored, so the value stays the last one. */
  readonly close: () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  let closed = false;
  const listeners = new Set<Listener<T>>();
  const set = (next: T): void => {
    if (closed) return;
    value = next;
    for (const listener of listeners) listener(next);
  };
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      listener(value);
      return () => void listeners.delete(listener);
    },
    get: () => value,
    set,
    update: (next) => set(next(value)),
    close: () => {
      closed = true;
      listeners.clear();
    },
  };
}

/** Merges `part` into an object store's value. */
export function patch<T extends object>(target: Store<T>, part: Partial<T>): void {
  target.update((value) => ({ ...value, ...part }));
}
