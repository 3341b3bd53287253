import { describe, expect, it } from 'vitest';
import { EmbedRun, type EmbedChoice, type EmbedRunState } from '../../../src/lib/app/embed-run.ts';
import { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';
import type { OwnedVectorStore } from '../../../src/lib/embed/vector-cache.ts';
import { getModelSpec, listModelSpecs } from '../../../src/lib/embed/model-registry.ts';
import { FakeEmbedder } from '../embed/fake-embedders.ts';
import { refOfSpec } from '../../../src/lib/embed/model-ref.ts';

class MemoryStore implements OwnedVectorStore {
  readonly rows = new Map<string, Float32Array>();
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
  close() {}
}

const spec = getModelSpec('tiny-bert');
const choice: EmbedChoice = {
  model: refOfSpec(spec, { dtype: spec.dtypes[0], backend: 'wasm' }),
  failWebgpuProbe: false,
  perturbProbe: null,
};

function setup(
  options: {
    store?: OwnedVectorStore | null;
    fail?: string;
    delayMs?: number;
    loading?: Promise<void>;
  } = {},
) {
  const store = options.store === undefined ? new MemoryStore() : options.store;
  let loads = 0;
  const hub = new EmbedderHub({
    openStore: store ? async () => store : () => Promise.reject(new Error('IndexedDB is blocked')),
    create: async (request, _s, onLoad) => {
      loads++;
      onLoad?.({ file: 'model.onnx', loaded: 1, total: 2 });
      await options.loading;
      if (options.fail) throw new Error(options.fail);
      return new FakeEmbedder(request.model.id, options.delayMs ?? 1);
    },
  });
  const run = new EmbedRun(hub, listModelSpecs());
  const phases: string[] = [];
  run.subscribe((s: EmbedRunState) => {
    if (phases.at(-1) !== s.phase) phases.push(s.phase);
  });
  return { run, store, phases, loads: () => loads };
}

describe('EmbedRun', () => {
  it('is ready once the vector cache opened, and says so when it cannot open', async () => {
    const ok = setup();
    expect(ok.run.getSnapshot().ready).toBe(false);
    await ok.run.start();
    expect(ok.run.getSnapshot()).toMatchObject({ ready: true, cacheCount: 0, error: '' });
    const blocked = setup({ store: null });
    await blocked.run.start();
    expect(blocked.run.getSnapshot()).toMatchObject({
      ready: true,
      cacheCount: null,
      error: 'Vector cache unavailable, every run recomputes: IndexedDB is blocked',
    });
  });

  it('loads once per choice, showing the bytes while it loads', async () => {
    const { run, phases, loads } = setup();
    await run.start();
    await run.load(choice);
    expect(phases).toEqual(['idle', 'loading', 'idle']);
    expect(run.getSnapshot().loadProgress).toEqual({ file: 'model.onnx', loaded: 1, total: 2 });
    await run.load(choice);
    expect(phases).toEqual(['idle', 'loading', 'idle']);
    expect(loads()).toBe(1);
  });

  it('embeds the texts and keeps the finished run for export', async () => {
    const { run, phases } = setup();
    await run.start();
    await run.embed(choice, ['my cat', 'a visa']);
    expect(phases).toEqual(['idle', 'loading', 'embedding', 'done']);
    const state = run.getSnapshot();
    expect(state.lastRun).toMatchObject({
      model: { spec, dtype: choice.model.dtype },
      kind: 'document',
    });
    expect(run.lastMatrix()?.count).toBe(2);
    const pack = await run.exportLastRun();
    expect(pack?.fileName).toBe(`memlens-vectors-tiny-bert-${choice.model.dtype}.parquet`);
    expect(pack?.bytes.byteLength).toBeGreaterThan(0);
  });

  it("shows the cache's new count in the same state that first shows the run ended", async () => {
    const store = new MemoryStore();
    const { run } = setup({ store, delayMs: 20 });
    await run.start();
    const countsAtEnd: (number | null)[] = [];
    run.subscribe((s: EmbedRunState) => {
      if (s.phase === 'done' && countsAtEnd.length === 0) countsAtEnd.push(s.cacheCount);
    });
    const embedding = run.embed(choice, ['my cat']);
    // What the cached embedder stores while the run is going on.
    store.rows.set('stored during the run', new Float32Array(1));
    await embedding;
    expect(countsAtEnd).toEqual([1]);
  });

  it('ends a cancelled run as cancelled, with no matrix', async () => {
    const { run } = setup({ delayMs: 20 });
    await run.start();
    const embedding = run.embed(choice, ['my cat']);
    await new Promise((r) => setTimeout(r, 5));
    run.cancel();
    await embedding;
    expect(run.getSnapshot().phase).toBe('cancelled');
    expect(run.lastMatrix()).toBeNull();
  });

  it('cancels while the model loads, at once, and keeps the model the hub goes on loading', async () => {
    let finish = () => {};
    const loading = new Promise<void>((r) => (finish = r));
    const { run, phases, loads } = setup({ loading });
    await run.start();
    const embedding = run.embed(choice, ['my cat']);
    await new Promise((r) => setTimeout(r, 5));
    expect(run.getSnapshot().phase).toBe('loading');
    run.cancel();
    await embedding;
    expect(phases).toEqual(['idle', 'loading', 'cancelled']);
    finish();
    await run.embed(choice, ['my cat']);
    expect(run.getSnapshot().phase).toBe('done');
    expect(loads()).toBe(1);
  });

  it('reports a load that fails, and leaves the page usable', async () => {
    const { run } = setup({ fail: 'model file missing: onnx/model.onnx' });
    await run.start();
    await run.embed(choice, ['x']);
    expect(run.getSnapshot()).toMatchObject({
      phase: 'error',
      error: 'model file missing: onnx/model.onnx',
      ready: true,
    });
  });

  it('clears the cache and names a file that is not a pack', async () => {
    const store = new MemoryStore();
    await store.putMany([{ key: 'k', vector: new Float32Array(2) }]);
    const { run } = setup({ store });
    await run.start();
    expect(run.getSnapshot().cacheCount).toBe(1);
    await run.clearCache();
    expect(run.getSnapshot()).toMatchObject({ cacheCount: 0, cacheBusy: false });
    await run.importPack(
      'notes.parquet',
      async () => new TextEncoder().encode('not parquet').buffer,
    );
    expect(run.getSnapshot().packStatus).toMatch(/^Could not import notes\.parquet: /);
    expect(run.getSnapshot().packBusy).toBe(false);
  });

  it('refuses a pack when there is no vector cache', async () => {
    const { run } = setup({ store: null });
    await run.start();
    await run.importPack('p.parquet', async () => new ArrayBuffer(0));
    expect(run.getSnapshot().packStatus).toBe(
      'The vector cache is unavailable here, so a pack cannot be imported.',
    );
  });
});
