import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorFileStore } from '../../scripts/lib/vector-file-store.ts';

const temp = () => mkdtemp(path.join(os.tmpdir(), 'memlens-vectors-'));

describe('VectorFileStore', () => {
  it('keeps vectors across opens, bit for bit', async () => {
    const file = path.join(await temp(), 'sub', 'm.jsonl');
    const v = new Float32Array([0.1, -2.5, Math.PI]);
    await (await VectorFileStore.open(file)).putMany([{ key: 'k1', vector: v }]);
    const again = await VectorFileStore.open(file);
    const [got, none] = await again.getMany(['k1', 'k2']);
    expect(got && [...got]).toEqual([...v]);
    expect(none).toBeUndefined();
  });

  it('skips a torn last record and writes the next one on a line of its own', async () => {
    const file = path.join(await temp(), 'm.jsonl');
    await (await VectorFileStore.open(file)).putMany([{ key: 'a', vector: new Float32Array([1]) }]);
    await appendFile(file, '{"key":"torn","f32":"AAA');
    const store = await VectorFileStore.open(file);
    expect(store.size).toBe(1);
    await store.putMany([{ key: 'b', vector: new Float32Array([2]) }]);
    const reopened = await VectorFileStore.open(file);
    expect(reopened.size).toBe(2);
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('writes a key once', async () => {
    const file = path.join(await temp(), 'm.jsonl');
    const store = await VectorFileStore.open(file);
    await store.putMany([{ key: 'a', vector: new Float32Array([1]) }]);
    await store.putMany([{ key: 'a', vector: new Float32Array([1]) }]);
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
  });
});
