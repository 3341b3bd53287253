import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { IndexedDbHubStore } from '../../../src/lib/embed/hub-model-idb.ts';
import { openDatabase, transactionDone } from '../../../src/lib/common/idb.ts';

const BASE = 'hub:Xenova/bge-small-en-v1.5@0123abc';

describe('IndexedDbHubStore', () => {
  beforeAll(() => vi.stubGlobal('IDBKeyRange', IDBKeyRange));
  afterAll(() => vi.unstubAllGlobals());

  it('keeps the digests and files of a reference, and deletes only its files', async () => {
    const store = new IndexedDbHubStore(new IDBFactory());
    expect(await store.digests(BASE)).toBeNull();
    const digests = { 'onnx/model.onnx': { sha256: 'ab'.repeat(32), bytes: 3 } };
    await store.saveDigests(BASE, digests);
    expect(await store.digests(BASE)).toEqual(digests);
    await store.putFile(BASE, 'onnx/model.onnx', new Blob(['abc']));
    await store.putFile('hub:other/model@1', 'onnx/model.onnx', new Blob(['xyz']));
    expect(await (await store.file(BASE, 'onnx/model.onnx'))?.text()).toBe('abc');
    expect(await store.file(BASE, 'tokenizer.json')).toBeNull();
    await store.deleteFiles(BASE);
    expect(await store.file(BASE, 'onnx/model.onnx')).toBeNull();
    expect(await (await store.file('hub:other/model@1', 'onnx/model.onnx'))?.text()).toBe('xyz');
  });

  it('says the digests kept in this browser are unreadable rather than trusting them', async () => {
    const factory = new IDBFactory();
    const store = new IndexedDbHubStore(factory);
    await store.saveDigests(BASE, {});
    // A value no version of MemLens wrote: a string where a file's digest should be.
    const db = await openDatabase(factory, 'memlens-hub-models', 1, []);
    const tx = db.transaction('digests', 'readwrite');
    tx.objectStore('digests').put({ 'model.onnx': 'ab' }, BASE);
    await transactionDone(tx);
    db.close();
    await expect(store.digests(BASE)).rejects.toThrow(
      `${BASE}: the digests kept in this browser are unreadable`,
    );
  });
});
