import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { VectorCache } from '../../../src/lib/embed/vector-cache.ts';

describe('VectorCache (IndexedDB)', () => {
  it('gives back the vectors it stored, undefined for the rest, and counts and clears', async () => {
    const cache = await VectorCache.open('memlens-vectors-test', new IDBFactory());
    await cache.putMany([
      { key: 'a', vector: new Float32Array([1, 2]) },
      { key: 'b', vector: new Float32Array([3, 4]) },
    ]);
    const [a, missing, b] = await cache.getMany(['a', 'zz', 'b']);
    expect(a).toEqual(new Float32Array([1, 2]));
    expect(missing).toBeUndefined();
    expect(b).toEqual(new Float32Array([3, 4]));
    expect(await cache.count()).toBe(2);
    await cache.clear();
    expect(await cache.count()).toBe(0);
    expect(await cache.getMany(['a'])).toEqual([undefined]);
    cache.close();
  });
});
