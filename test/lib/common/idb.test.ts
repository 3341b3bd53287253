import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import {
  openDatabase,
  requestResult,
  transactionDone,
  type RequestLike,
  type TransactionLike,
} from '../../../src/lib/common/idb.ts';

/** Just the callback slots a request exposes; the browser fires them, here the test does. */
class FakeRequest implements RequestLike<string | undefined> {
  onsuccess: ((ev: Event) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  result: string | undefined = undefined;
  error: DOMException | null = null;
}

class FakeTransaction implements TransactionLike {
  oncomplete: ((ev: Event) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  onabort: ((ev: Event) => unknown) | null = null;
  error: DOMException | null = null;
}

const fire = new Event('done');

describe('requestResult', () => {
  it('resolves with the result on success', async () => {
    const r = new FakeRequest();
    const p = requestResult(r);
    r.result = 'row';
    r.onsuccess?.(fire);
    await expect(p).resolves.toBe('row');
  });

  it("rejects with the request's error, or a plain one", async () => {
    const named = new FakeRequest();
    const p = requestResult(named);
    named.error = new DOMException('disk full', 'QuotaExceededError');
    named.onerror?.(fire);
    await expect(p).rejects.toThrow('disk full');
    const bare = new FakeRequest();
    const q = requestResult(bare);
    bare.onerror?.(fire);
    await expect(q).rejects.toThrow('IndexedDB request failed');
  });
});

describe('transactionDone', () => {
  it('resolves on complete and rejects on abort', async () => {
    const ok = new FakeTransaction();
    const p = transactionDone(ok);
    ok.oncomplete?.(fire);
    await expect(p).resolves.toBeUndefined();
    const aborted = new FakeTransaction();
    const q = transactionDone(aborted);
    aborted.onabort?.(fire);
    await expect(q).rejects.toThrow('IndexedDB transaction aborted');
  });
});

describe('openDatabase', () => {
  it('makes the missing stores, and a later version adds stores while keeping the rows', async () => {
    const factory = new IDBFactory();
    const first = await openDatabase(factory, 'memlens-test', 1, ['a']);
    expect([...first.objectStoreNames]).toEqual(['a']);
    const tx = first.transaction('a', 'readwrite');
    tx.objectStore('a').put('kept', 'k');
    await transactionDone(tx);
    first.close();
    const second = await openDatabase(factory, 'memlens-test', 2, ['a', 'b']);
    expect([...second.objectStoreNames].sort()).toEqual(['a', 'b']);
    const read = second.transaction('a', 'readonly').objectStore('a').get('k');
    await expect(requestResult(read)).resolves.toBe('kept');
    second.close();
  });

  it('names the database another tab holds open at an older version', async () => {
    const factory = new IDBFactory();
    const held = await openDatabase(factory, 'memlens-held', 1, ['a']);
    // The holder ignores the request to close, as a busy tab may.
    held.onversionchange = () => undefined;
    await expect(openDatabase(factory, 'memlens-held', 2, ['a'])).rejects.toThrow(
      'IndexedDB memlens-held is blocked by another tab',
    );
    held.close();
  });
});
