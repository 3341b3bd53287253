// The page-side embedder against a scripted stand-in for the worker and the cache: what gets
// stored, counted and returned when batches arrive, when a run is cancelled, and when all is cached.
import { describe, expect, it } from 'vitest';
import { BrowserEmbedder } from '../../../src/lib/embed/browser-embedder.ts';
import type { RunProgress } from '../../../src/lib/embed/progress.ts';
import type { VectorStore } from '../../../src/lib/embed/vector-cache.ts';
import type {
  EmbedMethods,
  LoadInfo,
  WorkerLoadConfig,
} from '../../../src/lib/embed/worker-protocol.ts';
import type { RpcReply, RpcRequest, RpcWorker } from '../../../src/lib/common/worker-rpc.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';
import { refKeyScope, vectorKey } from '../../../src/lib/embed/vector-cache-key.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';

const DIM = 32;
const SITE = 'https://example.org/memlens/';
const serveAll = (async () => new Response(null, { status: 200 })) as typeof fetch;
const TINY_WEIGHTS = 'a8914e9527f893cb50f111466e6397e04b373069cf050fb6ed84a65668c4184f';
/**
 * The page's reference, parsed once: the worker and the cache key must see it as it is. Its spec
 * does not normalise, so the scripted batches (row r filled with r + 1) pass the vector check.
 */
const PARSED = parseModelRef('tiny-bert@wasm');
const TINY = { ...PARSED, spec: { ...PARSED.spec, normalize: false } };

type ToWorker = RpcRequest<EmbedMethods>;

/** The embed worker's side of the RPC, scripted: loads answer at once, the tests send batches. */
class FakeWorker implements RpcWorker {
  private readonly listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  readonly received: ToWorker[] = [];
  /** The sha256 the worker reports for the weights it checked and loaded. */
  weightsSha256 = TINY_WEIGHTS;

  postMessage(message: ToWorker): void {
    this.received.push(message);
    if (message.type === 'call' && message.method === 'load') {
      const info: LoadInfo = {
        backend: 'wasm',
        fallbackReason: 'WASM was chosen',
        probe: null,
        emulated: null,
        adapter: null,
        threads: 1,
        loadMs: 1,
        files: [],
        weightsSha256: this.weightsSha256,
      };
      queueMicrotask(() => this.reply({ type: 'result', id: message.id, result: info }));
    }
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.get(type)?.delete(listener);
  }

  terminate(): void {}

  reply(message: RpcReply): void {
    for (const listener of [...(this.listeners.get('message') ?? [])]) {
      listener(new MessageEvent('message', { data: message }));
    }
  }

  /** What a Worker fires when an exception escapes its script. */
  fail(message: string): void {
    const event = Object.assign(new MessageEvent('error', { cancelable: true }), { message });
    for (const listener of [...(this.listeners.get('error') ?? [])]) listener(event);
  }

  firstLoad(): { config: WorkerLoadConfig } {
    const load = this.received.find((m) => m.type === 'call' && m.method === 'load');
    if (load?.type !== 'call' || load.method !== 'load') throw new Error('expected a load');
    return load.params;
  }

  lastEmbed(): { id: number; texts: string[] } {
    const embed = [...this.received]
      .reverse()
      .find((m) => m.type === 'call' && m.method === 'embed');
    if (embed?.type !== 'call' || embed.method !== 'embed') throw new Error('no embed request');
    return { id: embed.id, texts: embed.params.texts };
  }

  /** A batch whose row r is filled with `indices[r] + 1`, so tests can tell rows apart. */
  batch(indices: number[]): void {
    const vectors = new Float32Array(indices.length * DIM);
    indices.forEach((index, r) => vectors.fill(index + 1, r * DIM, (r + 1) * DIM));
    this.reply({ type: 'progress', id: this.lastEmbed().id, progress: { indices, vectors } });
  }

  /** The run's answer: every batch sent. */
  embedded(): void {
    this.reply({ type: 'result', id: this.lastEmbed().id, result: null });
  }
}

/** An in-memory store whose writes can be held open, like a slow IndexedDB transaction. */
class FakeStore implements VectorStore {
  readonly data = new Map<string, Float32Array>();
  hold = false;
  private release: (() => void)[] = [];

  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.data.get(k));
  }

  get pending(): number {
    return this.release.length;
  }

  async putMany(entries: readonly { key: string; vector: Float32Array }[]) {
    if (this.hold) await new Promise<void>((resolve) => this.release.push(resolve));
    for (const { key, vector } of entries) this.data.set(key, vector);
  }

  releaseAll(): void {
    this.release.splice(0).forEach((resolve) => resolve());
  }
}

/** As src/browser/ort-assets.ts gives them: absolute URLs under the site's base. */
const wasmPaths = (base: string) => ({
  wasm: new URL('assets/ort-wasm-simd-threaded.asyncify-abc.wasm', base).href,
  sha256: 'ab'.repeat(32),
});

async function setup(store: FakeStore | null, onCacheDropped?: (message: string) => void) {
  const worker = new FakeWorker();
  const embedder = new BrowserEmbedder({
    siteBase: SITE,
    cache: store,
    onCacheDropped,
    fetchImpl: serveAll,
    createWorker: () => worker,
    wasmPaths,
  });
  const report = await embedder.load(TINY);
  return { worker, embedder, report };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Hashing and cache lookups are asynchronous: wait for the state a step needs, not a fixed time. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await tick();
  if (!condition()) throw new Error('condition not reached');
}

const embedRequests = (worker: FakeWorker) =>
  worker.received.filter((m) => m.type === 'call' && m.method === 'embed').length;

describe('BrowserEmbedder', () => {
  it('loads from the site through the worker and reports what ran', async () => {
    const { worker, report, embedder } = await setup(null);
    expect(report).toMatchObject({
      backend: 'wasm',
      model: { id: 'tiny-bert', dtype: 'fp32' },
      source: 'site',
    });
    expect(embedder.backend).toBe('wasm');
    const load = worker.firstLoad();
    expect(load.config.location).toEqual({
      kind: 'site',
      loadId: 'tiny-bert',
      localModelPath: '/memlens/models/',
    });
    expect(load.config.numThreads).toBe(1);
    expect(load.config.wasmPaths.wasm).toMatch(
      /^https:\/\/example\.org\/.*ort-wasm-simd-threaded\.asyncify.*\.wasm$/,
    );
    // The worker runs from a blob: URL: it resolves model paths against the page's base.
    expect(load.config.siteBase).toBe(SITE);
    expect(load.config.wasmPaths.sha256).toBe('ab'.repeat(32));
  });

  it('hands the worker and the cache key the reference it was given, unchanged', async () => {
    const store = new FakeStore();
    const { worker, embedder, report } = await setup(store);
    const { config } = worker.firstLoad();
    expect(config.model).toBe(TINY);
    // What postMessage delivers is a structured clone: the reference must survive it whole.
    expect(structuredClone(config.model)).toEqual(TINY);
    expect(report.model).toBe(TINY);
    const run = embedder.embed(['x'], { kind: 'document' });
    await until(() => embedRequests(worker) === 1);
    worker.batch([0]);
    worker.embedded();
    await run;
    const key = vectorKey(refKeyScope(TINY, 'document'), await sha256Hex('x'));
    expect([...store.data.keys()]).toEqual([key]);
    expect(JSON.parse(key)).toEqual([
      'tiny-bert',
      TINY.revision,
      'fp32',
      'mean@128',
      '',
      await sha256Hex('x'),
    ]);
  });

  it('refuses a Node reference before starting a worker', async () => {
    const worker = new FakeWorker();
    const embedder = new BrowserEmbedder({
      siteBase: SITE,
      fetchImpl: serveAll,
      createWorker: () => worker,
      wasmPaths,
    });
    await expect(embedder.load(parseModelRef('tiny-bert@node'))).rejects.toThrow(
      'tiny-bert:fp32@node runs in Node, not in a page',
    );
    expect(worker.received).toEqual([]);
  });

  it('computes each distinct miss once, stores each batch, and fills every row', async () => {
    const store = new FakeStore();
    const { worker, embedder } = await setup(store);
    const seen: RunProgress[] = [];
    const run = embedder.embed(['a', 'b', 'a', 'c'], {
      kind: 'document',
      onProgress: (p) => seen.push(p),
    });
    await until(() => embedRequests(worker) === 1);
    expect(worker.lastEmbed().texts).toEqual(['a', 'b', 'c']);
    worker.batch([0, 2]);
    worker.batch([1]);
    worker.embedded();
    const matrix = await run;
    expect(matrix.count).toBe(4);
    expect([0, 1, 2, 3].map((row) => matrix.vectors[row * DIM])).toEqual([1, 2, 1, 3]);
    expect(store.data.size).toBe(3);
    expect(seen.map((p) => [p.done, p.computed, p.modelCalls])).toEqual([
      [0, 0, 0],
      [3, 2, 1],
      [4, 3, 2],
    ]);
  });

  it('serves a fully cached run without asking the worker', async () => {
    const store = new FakeStore();
    const { worker, embedder } = await setup(store);
    const first = embedder.embed(['x', 'y'], { kind: 'document' });
    await until(() => embedRequests(worker) === 1);
    worker.batch([0, 1]);
    worker.embedded();
    await first;
    const requests = worker.received.length;
    let last: RunProgress | null = null;
    const again = await embedder.embed(['y', 'x'], {
      kind: 'document',
      onProgress: (p) => (last = p),
    });
    expect(worker.received.length).toBe(requests);
    expect([again.vectors[0], again.vectors[DIM]]).toEqual([2, 1]);
    expect(last).toMatchObject({ done: 2, cached: 2, computed: 0, modelCalls: 0 });
  });

  it('drops a stored vector that fails its check, says so, computes it again and stores that', async () => {
    const store = new FakeStore();
    const notes: string[] = [];
    const { worker, embedder } = await setup(store, (m) => notes.push(m));
    const first = embedder.embed(['x', 'y'], { kind: 'document' });
    await until(() => embedRequests(worker) === 1);
    worker.batch([0, 1]);
    worker.embedded();
    await first;
    const [keyX] = [...store.data.keys()];
    store.data.set(keyX, new Float32Array(DIM).fill(Number.NaN));
    const again = embedder.embed(['x', 'y'], { kind: 'document' });
    await until(() => embedRequests(worker) === 2);
    expect(worker.lastEmbed().texts).toEqual(['x']);
    worker.batch([0]);
    worker.embedded();
    const m = await again;
    expect([m.vectors[0], m.vectors[DIM]]).toEqual([1, 2]);
    expect(store.data.get(keyX)?.[0]).toBe(1);
    expect(notes).toEqual([
      expect.stringMatching(
        /^1 stored tiny-bert .* fp32 vector failed its check and was dropped from this browser's vector cache and computed again \(the first: row 0 fails the finite check \(number 0 is NaN\)\)\.$/,
      ),
    ]);
  });

  it('refuses a computed vector that fails its check, naming the text, and stores nothing', async () => {
    const store = new FakeStore();
    const { worker, embedder } = await setup(store);
    const run = embedder.embed(['x'], { kind: 'document' });
    await until(() => embedRequests(worker) === 1);
    worker.reply({
      type: 'progress',
      id: worker.lastEmbed().id,
      progress: { indices: [0], vectors: new Float32Array(DIM) },
    });
    worker.embedded();
    await expect(run).rejects.toThrow(
      /: the vector computed for "x" \(text 0 of the run\) fails the not constant check \(every number is 0\); nothing of this batch was stored$/,
    );
    expect(store.data.size).toBe(0);
  });

  it('keys vectors on the sha256 of the weights loaded: other bytes never get the cached vectors', async () => {
    const store = new FakeStore();
    const { worker, embedder } = await setup(store);
    const first = embedder.embed(['x'], { kind: 'document' });
    await until(() => embedRequests(worker) === 1);
    worker.batch([0]);
    worker.embedded();
    await first;
    expect([...store.data.keys()][0]).toContain(`"sha256:${TINY_WEIGHTS}"`);

    worker.weightsSha256 = 'f'.repeat(64);
    await embedder.load(TINY);
    const second = embedder.embed(['x'], { kind: 'document' });
    await until(() => embedRequests(worker) === 2);
    worker.batch([0]);
    worker.embedded();
    await second;
    expect(store.data.size).toBe(2);
    expect([...store.data.keys()][1]).toContain(`"sha256:${'f'.repeat(64)}"`);
  });

  it('on cancel: finishes the batch being stored, drops later ones, returns no matrix', async () => {
    const store = new FakeStore();
    const { worker, embedder } = await setup(store);
    const seen: RunProgress[] = [];
    const texts = ['t0', 't1', 't2', 't3', 't4', 't5'];
    const run = embedder.embed(texts, { kind: 'document', onProgress: (p) => seen.push(p) });
    let settled = false;
    run.catch(() => undefined).finally(() => (settled = true));
    await until(() => embedRequests(worker) === 1);
    worker.batch([0, 1]);
    await until(() => seen.length === 2);
    store.hold = true;
    worker.batch([2, 3]);
    await until(() => store.pending === 1); // its write is now in flight
    embedder.cancel();
    worker.batch([4, 5]); // finished by the worker after the cancel
    await tick();
    expect(settled).toBe(false); // waits for the in-flight write
    expect(worker.received.at(-1)).toEqual({ type: 'cancel', id: worker.lastEmbed().id });
    store.releaseAll();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(store.data.size).toBe(4);
    expect(seen.at(-1)).toMatchObject({ computed: 4, modelCalls: 2, done: 4 });
    expect(embedder.busy).toBe(false);
  });

  it('fails the run when the worker reports an error', async () => {
    const { worker, embedder } = await setup(null);
    const run = embedder.embed(['a'], { kind: 'query' });
    await until(() => embedRequests(worker) === 1);
    worker.reply({ type: 'error', id: worker.lastEmbed().id, message: 'session run failed' });
    await expect(run).rejects.toThrow('session run failed');
  });

  it('keeps computing when the cache is full, keeping the vectors and saying why', async () => {
    const store = new FakeStore();
    store.putMany = async () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const { worker, embedder } = await setup(store);
    const problems: string[] = [];
    const run = embedder.embed(['a', 'b'], {
      kind: 'document',
      onCacheError: (m) => problems.push(m),
    });
    await until(() => embedRequests(worker) === 1);
    worker.batch([0]);
    worker.batch([1]);
    worker.embedded();
    const matrix = await run;
    expect([matrix.vectors[0], matrix.vectors[DIM]]).toEqual([1, 2]);
    expect(problems).toEqual([
      'browser storage full: embedding vectors could not be saved (free space or allow this site more storage)',
    ]);
  });

  it('after the worker died, the next run starts a new worker and loads the model again', async () => {
    const workers: FakeWorker[] = [];
    const embedder = new BrowserEmbedder({
      siteBase: SITE,
      cache: null,
      fetchImpl: serveAll,
      createWorker: () => {
        workers.push(new FakeWorker());
        return workers[workers.length - 1];
      },
      wasmPaths,
    });
    await embedder.load(TINY);
    const first = embedder.embed(['a'], { kind: 'query' });
    await until(() => embedRequests(workers[0]) === 1);
    workers[0].fail('boom');
    await expect(first).rejects.toThrow('embedding worker failed: boom');
    const second = embedder.embed(['a'], { kind: 'query' });
    await until(() => workers.length === 2 && embedRequests(workers[1]) === 1);
    workers[1].batch([0]);
    workers[1].embedded();
    expect((await second).vectors[0]).toBe(1);
  });
});
