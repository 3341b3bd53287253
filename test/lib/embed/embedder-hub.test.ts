import { describe, expect, it } from 'vitest';
import { EmbedderHub, ranOn, requestKey } from '../../../src/lib/embed/embedder-hub.ts';
import type { OwnedVectorStore } from '../../../src/lib/embed/vector-cache.ts';
import type { LoadReport } from '../../../src/lib/embed/browser-embedder.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';
import { fakeHub, FakeEmbedder } from './fake-embedders.ts';

/** A request for the model reference `text`. */
const req = (text: string) => ({ model: parseModelRef(text) });
const tiny = req('tiny-bert@wasm');

class MemoryStore implements OwnedVectorStore {
  readonly rows = new Map<string, Float32Array>();
  closed = false;
  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.rows.get(k));
  }
  async putMany(entries: readonly { key: string; vector: Float32Array }[]) {
    for (const { key, vector } of entries) this.rows.set(key, vector);
  }
  async count() {
    return this.rows.size;
  }
  async clear() {
    this.rows.clear();
  }
  close() {
    this.closed = true;
  }
}

describe('requestKey', () => {
  it("treats a missing dtype as the model's default, and tells choices apart", () => {
    expect(requestKey(tiny)).toBe(requestKey(req('tiny-bert:fp32@wasm')));
    expect(requestKey(tiny)).not.toBe(requestKey(req('tiny-bert@webgpu')));
    expect(requestKey(tiny)).not.toBe(requestKey({ ...tiny, failWebgpuProbe: true }));
  });
});

describe('EmbedderHub', () => {
  it('makes one embedder per request, loaded once, with its unit vectors kept', async () => {
    const { hub, made } = fakeHub();
    const [a, b] = await Promise.all([
      hub.embedder(tiny),
      hub.embedder(req('tiny-bert:fp32@wasm')),
    ]);
    expect(made).toHaveLength(1);
    expect(a.vectors).toBe(b.vectors);
    expect(hub.vectors(tiny)).toBe(a.vectors);
    await hub.embedder(req('tiny-bert@webgpu'));
    expect(made).toHaveLength(2);
  });

  it('hands out unit vectors without loading the model, and the embedder loaded later shares them', async () => {
    const { hub, made } = fakeHub();
    const held = hub.vectors(tiny);
    held.set('document', 'from a pack', Float32Array.of(1, 0));
    await Promise.resolve();
    expect(made).toHaveLength(0);
    expect((await hub.embedder(tiny)).vectors).toBe(held);
  });

  it('runs every embedding through one queue, across embedders', async () => {
    const { hub, concurrency } = fakeHub({ delayMs: 5 });
    const a = await hub.embedder(tiny);
    const b = await hub.embedder(req('minilm@wasm'));
    await Promise.all([
      a.embed(['cat'], { kind: 'document' }),
      b.embed(['visa'], { kind: 'document' }),
      a.embed(['nut'], { kind: 'query' }),
    ]);
    expect(concurrency.max).toBe(1);
    expect(hub.pendingRuns).toBe(0);
  });

  it('forgets a failed load, so the next request tries again', async () => {
    let attempts = 0;
    const hub = new EmbedderHub({
      create: async (request) => {
        attempts++;
        if (attempts === 1) throw new Error('model file missing');
        return new FakeEmbedder(request.model.id);
      },
    });
    await expect(hub.embedder(tiny)).rejects.toThrow('model file missing');
    await expect(hub.embedder(tiny)).resolves.toBeDefined();
    expect(attempts).toBe(2);
  });

  it('disposes the least recently used idle embedder beyond `keep`, and reloads it on use', async () => {
    const { hub, made } = fakeHub({ keep: 1 });
    const a = await hub.embedder(tiny);
    await hub.embedder(req('tiny-bert@webgpu'));
    expect(made[0].embedder.disposed).toBe(true);
    expect(made[1].embedder.disposed).toBe(false);
    await a.embed(['cat'], { kind: 'document' });
    expect(made).toHaveLength(3);
    expect(made[2].embedder.calls).toHaveLength(1);
  });

  it('opens the vector cache once, hands it to every embedder, and closes it on dispose', async () => {
    const store = new MemoryStore();
    let opened = 0;
    const given: unknown[] = [];
    const hub = new EmbedderHub({
      openStore: async () => {
        opened++;
        return store;
      },
      create: async (request, s) => {
        given.push(s);
        return new FakeEmbedder(request.model.id);
      },
    });
    await hub.embedder(tiny);
    await hub.embedder(req('minilm@wasm'));
    expect(await hub.store()).toBe(store);
    expect(opened).toBe(1);
    expect(given).toEqual([store, store]);
    await hub.dispose();
    expect(store.closed).toBe(true);
  });

  it('says why the vector cache did not open, and embeds without it', async () => {
    const given: unknown[] = [];
    const hub = new EmbedderHub({
      openStore: () => Promise.reject(new Error('IndexedDB is blocked by another tab')),
      create: async (request, s) => {
        given.push(s);
        return new FakeEmbedder(request.model.id);
      },
    });
    await hub.embedder(tiny);
    expect(await hub.store()).toBeNull();
    expect(hub.storeError).toBe('IndexedDB is blocked by another tab');
    expect(given).toEqual([null]);
  });

  it('makes scratch embedders without the cache and without keeping them', async () => {
    const { hub, made } = fakeHub();
    const scratch = await hub.scratch(tiny);
    await hub.embedder(tiny);
    expect(made).toHaveLength(2);
    expect(made[0].embedder).toBe(scratch);
  });
});

describe('ranOn', () => {
  it('names the backend that ran, emulated WebGPU included', () => {
    expect(ranOn({ backend: 'node', report: null })).toBe('onnxruntime-node');
    expect(ranOn({ backend: 'wasm', report: null })).toBe('WASM');
    const emulated = { emulated: 'a fallback adapter (google swiftshader)' };
    expect(ranOn({ backend: 'webgpu', report: { ...reportOf('webgpu'), ...emulated } })).toBe(
      'WebGPU (emulated on the CPU: a fallback adapter (google swiftshader))',
    );
  });
});

function reportOf(backend: 'wasm' | 'webgpu'): LoadReport {
  return {
    backend,
    fallbackReason: null,
    probe: null,
    emulated: null,
    adapter: null,
    threads: 1,
    loadMs: 1,
    files: [],
    weightsSha256: '',
    model: parseModelRef('tiny-bert'),
    source: 'site',
  };
}
