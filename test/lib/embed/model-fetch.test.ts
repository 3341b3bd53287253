import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChecksumError } from '../../../src/lib/data/integrity.ts';
import { ModelFileGuard, type CacheStore } from '../../../src/lib/embed/model-fetch.ts';
import type { ModelFilePin } from '../../../src/lib/embed/model-integrity.ts';

const ORIGIN = 'http://127.0.0.1:4000/memlens/assets/embed-worker.js';
const BASE = 'http://127.0.0.1:4000/memlens/models/tiny-bert/';
const GOOD = new TextEncoder().encode('weights, all of them, in order');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PIN: ModelFilePin = {
  path: 'onnx/model.onnx',
  label: 'models/tiny-bert/onnx/model.onnx',
  sha256: sha(GOOD),
  bytes: GOOD.length,
};

/** A server answering every request with `body()` in 4-byte chunks, recording each request. */
function server(body: () => Uint8Array) {
  const seen: { url: string; cache: RequestCache | undefined }[] = [];
  const fetchImpl = async (input: string | URL, init?: RequestInit) => {
    seen.push({ url: String(input), cache: init?.cache });
    const bytes = body();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4) controller.enqueue(bytes.slice(i, i + 4));
        controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/octet-stream' } });
  };
  return { fetchImpl, seen };
}

/** Caches named like the service worker's, the HTML page's and transformers.js's. */
function cacheStore(names: string[]) {
  const deleted: string[] = [];
  const store: CacheStore = {
    keys: async () => names,
    open: async (name) => ({ delete: async (url) => (deleted.push(`${name} ${url}`), true) }),
  };
  return { store, deleted };
}

describe('ModelFileGuard', () => {
  it('passes a pinned file through whole and records it as verified', async () => {
    const { fetchImpl } = server(() => GOOD);
    const guard = new ModelFileGuard(BASE, [PIN], fetchImpl, null, ORIGIN);
    const res = await guard.fetch('/memlens/models/tiny-bert/onnx/model.onnx');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(GOOD);
    expect(guard.checked.get('onnx/model.onnx')).toMatchObject({ verified: true, bytes: 30 });
    expect(guard.failure).toBeNull();
  });

  it('ends a tampered body in the error naming the file, evicts it, and asks again with reload', async () => {
    const bad = new Uint8Array(GOOD);
    bad[7] ^= 1;
    let body = bad;
    const { fetchImpl, seen } = server(() => body);
    const caches = cacheStore(['memlens-models-abc', 'transformers-cache', 'another-app']);
    const guard = new ModelFileGuard(BASE, [PIN], fetchImpl, caches.store, ORIGIN);
    const res = await guard.fetch(`${BASE}onnx/model.onnx`);
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    const read = async (): Promise<void> => {
      const { done } = await reader.read();
      if (!done) return read();
    };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChecksumError);
    expect(String(error)).toContain(`expected ${PIN.sha256}, got ${sha(bad)}`);
    expect(guard.failure).toBe(error);
    expect(guard.checked.size).toBe(0);
    expect(caches.deleted).toEqual([
      `memlens-models-abc ${BASE}onnx/model.onnx`,
      `transformers-cache ${BASE}onnx/model.onnx`,
    ]);

    body = GOOD;
    guard.reset();
    const again = await guard.fetch(`${BASE}onnx/model.onnx`);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(GOOD);
    expect(seen.map((s) => s.cache)).toEqual([undefined, 'reload']);
    expect(guard.failure).toBeNull();
  });

  it('a truncated body fails even when arrayBuffer() reads it', async () => {
    const { fetchImpl } = server(() => GOOD.subarray(0, 9));
    const guard = new ModelFileGuard(BASE, [PIN], fetchImpl, null, ORIGIN);
    const res = await guard.fetch(`${BASE}onnx/model.onnx`);
    await expect(res.arrayBuffer()).rejects.toBeDefined();
    expect(String(guard.failure)).toContain('(truncated: expected 30 bytes, got 9)');
  });

  it('refuses a file of the model that data/models.json does not list, without asking', async () => {
    const { fetchImpl, seen } = server(() => GOOD);
    const guard = new ModelFileGuard(BASE, [PIN], fetchImpl, null, ORIGIN);
    const res = await guard.fetch(`${BASE}onnx/model.onnx_data`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('is not listed in data/models.json');
    expect(seen).toEqual([]);
  });

  it('leaves other URLs and size probes (Range requests) alone', async () => {
    const { fetchImpl, seen } = server(() => new TextEncoder().encode('not a model'));
    const guard = new ModelFileGuard(BASE, [PIN], fetchImpl, null, ORIGIN);
    const other = await guard.fetch('http://127.0.0.1:4000/memlens/assets/ort.wasm');
    expect(await other.text()).toBe('not a model');
    const probe = await guard.fetch(`${BASE}onnx/model.onnx`, { headers: { Range: 'bytes=0-0' } });
    expect(await probe.text()).toBe('not a model');
    expect(seen).toHaveLength(2);
    expect(guard.failure).toBeNull();
  });
});
