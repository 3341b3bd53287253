import { describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import type { SqlEngine } from '../../../src/lib/db/engine.ts';
import { MissingTablesError } from '../../../src/lib/protocol-kit/inputs.ts';
import { readReproduceParams, type ReproduceParams } from '../../../src/lib/protocols/params.ts';
import type { QueryRunner } from '../../../src/lib/query/query-client.ts';
import {
  NotOnSiteError,
  ReproduceRun,
  protocolCompute,
  vectorSourceLine,
  type ReproduceCompute,
  type ReproduceState,
} from '../../../src/lib/protocols/reproduce-run.ts';
import {
  SITE_PACKS_FORMAT,
  SitePacks,
  type SitePackEntry,
} from '../../../src/lib/vectors/site-packs.ts';
import { fakeHub } from '../embed/fake-embedders.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { packRowsOf, writeVectorPack } from '../../../src/lib/vectors/pack.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';

const inmind = readReproduceParams({ bench: 'inmind', ret: 'bm25' });
const locomo = readReproduceParams({ bench: 'locomo', ret: 'bm25' });
const settle = () => new Promise((r) => setTimeout(r, 5));

interface Call {
  view: string;
  signal: AbortSignal;
  resolve: () => void;
  reject: (err: unknown) => void;
  progress: (done: number) => void;
  load: (loaded: number) => void;
}

/** A compute that waits to be told how each run ends. */
function manual() {
  const calls: Call[] = [];
  const compute: ReproduceCompute<string> = (_source, view, signal, onProgress, onLoad) =>
    new Promise((resolve, reject) => {
      calls.push({
        view: view.spec.benchmark,
        signal,
        resolve: () => resolve({}),
        reject,
        progress: (done) => onProgress({ done, total: 10, cached: 0 }),
        load: (loaded) => onLoad?.({ loaded, total: 100, file: 'onnx/model.onnx' }),
      });
    });
  const run = new ReproduceRun(compute);
  const states: ReproduceState[] = [];
  run.subscribe((s) => states.push(s));
  return { run, calls, states };
}

describe('ReproduceRun', () => {
  it('waits for a source, then runs each new view once', async () => {
    const { run, calls } = manual();
    run.request(null, inmind, 0);
    expect(calls).toHaveLength(0);
    run.request('db', inmind, 0);
    run.request('db', inmind, 0);
    expect(calls).toHaveLength(1);
    expect(run.getSnapshot().phase).toBe('running');
    calls[0].progress(3);
    expect(run.getSnapshot().progress).toEqual({ done: 3, total: 10, cached: 0 });
    calls[0].resolve();
    await settle();
    expect(run.getSnapshot().phase).toBe('idle');
  });

  it('aborts the run a new view replaces, and drops what it reports', async () => {
    const { run, calls } = manual();
    run.request('db', inmind, 0);
    run.request('db', locomo, 0);
    expect(calls.map((c) => [c.view, c.signal.aborted])).toEqual([
      ['inmind', true],
      ['locomo', false],
    ]);
    calls[0].progress(9);
    calls[0].reject(new Error('late failure'));
    await settle();
    expect(run.getSnapshot()).toMatchObject({ phase: 'running', progress: null, error: '' });
  });

  it('waits for missing tables and tries again when the data version moves', async () => {
    const { run, calls } = manual();
    run.request('db', inmind, 1);
    calls[0].reject(new MissingTablesError(['inmind_tasks']));
    await settle();
    expect(run.getSnapshot()).toMatchObject({
      phase: 'waiting',
      error: 'not loaded yet: inmind_tasks',
    });
    run.request('db', inmind, 1);
    expect(calls).toHaveLength(1);
    run.request('db', inmind, 2);
    expect(calls).toHaveLength(2);
    calls[1].resolve();
    await settle();
    run.request('db', inmind, 3);
    expect(calls).toHaveLength(2);
  });

  it('tells a retriever the site cannot run from a failure', async () => {
    const { run, calls } = manual();
    run.request('db', inmind, 0);
    calls[0].reject(new NotOnSiteError('bge-small'));
    await settle();
    expect(run.getSnapshot().phase).toBe('unavailable');
    run.request('db', locomo, 0);
    calls[1].reject(new Error('the embedding worker stopped'));
    await settle();
    expect(run.getSnapshot()).toMatchObject({
      phase: 'error',
      error: 'the embedding worker stopped',
      evaluation: null,
    });
  });

  it('aborts the run in flight on dispose and reports nothing after', async () => {
    const { run, calls, states } = manual();
    run.request('db', inmind, 0);
    run.dispose();
    expect(calls[0].signal.aborted).toBe(true);
    const count = states.length;
    calls[0].resolve();
    await settle();
    expect(states.length).toBe(count);
  });

  it('cancels the run in flight, drops what it reports, and runs the same view again on request', async () => {
    const { run, calls } = manual();
    run.request('db', inmind, 0);
    calls[0].progress(4);
    run.cancel();
    expect(calls[0].signal.aborted).toBe(true);
    expect(run.getSnapshot()).toMatchObject({ phase: 'cancelled', progress: null });
    calls[0].resolve();
    await settle();
    expect(run.getSnapshot().phase).toBe('cancelled');
    run.request('db', inmind, 0);
    expect(calls).toHaveLength(2);
    expect(run.getSnapshot().phase).toBe('running');
  });

  it('reports the model download before any text, and cancels during it', async () => {
    const { run, calls } = manual();
    run.request('db', inmind, 0);
    calls[0].load(40);
    expect(run.getSnapshot()).toMatchObject({
      phase: 'running',
      progress: null,
      loadProgress: { loaded: 40, total: 100, file: 'onnx/model.onnx' },
    });
    run.cancel();
    expect(calls[0].signal.aborted).toBe(true);
    expect(run.getSnapshot()).toMatchObject({ phase: 'cancelled', loadProgress: null });
    calls[0].load(80);
    expect(run.getSnapshot().loadProgress).toBeNull();
    run.request('db', inmind, 0);
    expect(run.getSnapshot().loadProgress).toBeNull();
  });
});

/** An engine with no tables at all. */
const emptyEngine: SqlEngine = {
  query: async () => [],
  registerText: async () => undefined,
  insertJsonFromPath: async () => undefined,
  dropFile: async () => undefined,
  openStatementRunner: async () => {
    throw new Error('no console here');
  },
  close: async () => undefined,
};

describe('protocolCompute', () => {
  const catalog = new Catalog(emptyEngine);
  const never = new AbortController().signal;
  const runView = (run: ReproduceCompute<QueryRunner>, view: ReproduceParams) =>
    run(catalog, view, never, () => undefined);

  it('refuses BM25 in release mode and a model the site does not serve, before reading data', async () => {
    const { hub, made } = fakeHub();
    const compute = protocolCompute({
      hub,
      served: Promise.resolve(new Map([['bge-small', []]])),
    });
    const release = readReproduceParams({ bench: 'locomo-plus', mode: 'release', ret: 'bm25' });
    await expect(compute(catalog, release, never, () => undefined)).rejects.toBeInstanceOf(
      NotOnSiteError,
    );
    const bge = readReproduceParams({ bench: 'inmind', ret: 'bge-small' });
    await expect(compute(catalog, bge, never, () => undefined)).rejects.toMatchObject({
      retriever: 'bge-small',
    });
    expect(made).toHaveLength(0);
  });

  it("never fetches a pack that does not list the view's protocol (InMind's for LoCoMo-Conv)", async () => {
    const { hub } = fakeHub();
    const { entry, bytes } = await realPack();
    const asked: string[] = [];
    const packs = new SitePacks('http://site.test/', async (input) => {
      const rel = String(input).slice('http://site.test/'.length);
      asked.push(rel);
      if (rel === 'vectors/index.json') {
        return Response.json({ format: SITE_PACKS_FORMAT, packs: [entry] });
      }
      return new Response(rel.endsWith('.parquet') ? bytes : 'no', { status: 200 });
    });
    const served = Promise.resolve(new Map([['tiny-bert', ['fp32'] as const]]));
    const compute = protocolCompute({ hub, served, packs });
    const conv = readReproduceParams({ bench: 'locomo-conv', ret: 'tiny-bert' });
    const never = new AbortController().signal;
    const catalog = new Catalog(emptyEngine);
    await expect(compute(catalog, conv, never, () => undefined)).rejects.toThrow();
    expect(asked.filter((a) => a.endsWith('.parquet'))).toEqual([]);
  });

  it('loads the model through the hub on the view’s device, and waits for missing tables', async () => {
    const { hub, made } = fakeHub();
    const compute = protocolCompute({ hub, served: Promise.resolve(new Map()) });
    const view = readReproduceParams({ bench: 'inmind', ret: 'tiny-bert', device: 'wasm' });
    await expect(compute(catalog, view, never, () => undefined)).rejects.toBeInstanceOf(
      MissingTablesError,
    );
    expect(made.map((m) => m.request)).toEqual([{ model: parseModelRef('tiny-bert@wasm') }]);
  });

  it('passes the model download to the page as it arrives', async () => {
    const { hub } = fakeHub({ loadBytes: 1000 });
    const compute = protocolCompute({ hub, served: Promise.resolve(new Map()) });
    const view = readReproduceParams({ bench: 'inmind', ret: 'tiny-bert', device: 'wasm' });
    const loads: number[] = [];
    await expect(
      compute(
        catalog,
        view,
        never,
        () => undefined,
        (p) => loads.push(p.loaded),
      ),
    ).rejects.toBeInstanceOf(MissingTablesError);
    expect(loads).toEqual([500, 1000]);
  });

  it('loads a model in the dtype the site serves (BGE-small q8 on Pages)', async () => {
    const { hub, made } = fakeHub();
    const compute = protocolCompute({
      hub,
      served: Promise.resolve(new Map([['bge-small', ['q8'] as const]])),
    });
    const view = readReproduceParams({ bench: 'inmind', ret: 'bge-small', device: 'wasm' });
    await expect(compute(catalog, view, never, () => undefined)).rejects.toBeInstanceOf(
      MissingTablesError,
    );
    expect(made.map((m) => m.request)).toEqual([{ model: parseModelRef('bge-small:q8@wasm') }]);
  });

  it('loads the dtype the URL asks for, and never another when the site lacks it', async () => {
    const { hub, made } = fakeHub();
    const both = protocolCompute({
      hub,
      served: Promise.resolve(new Map([['minilm', ['fp32', 'q8'] as const]])),
    });
    const q8 = readReproduceParams({ bench: 'inmind-figure4', ret: 'minilm:q8', device: 'wasm' });
    await expect(runView(both, q8)).rejects.toBeInstanceOf(MissingTablesError);
    const fp32 = readReproduceParams({ bench: 'inmind-figure4', ret: 'minilm', device: 'wasm' });
    await expect(runView(both, fp32)).rejects.toBeInstanceOf(MissingTablesError);
    expect(made.map((m) => m.request)).toEqual([
      { model: parseModelRef('minilm:q8@wasm') },
      { model: parseModelRef('minilm:fp32@wasm') },
    ]);
    const fp32Only = protocolCompute({
      hub,
      served: Promise.resolve(new Map([['minilm', ['fp32'] as const]])),
    });
    await expect(runView(fp32Only, q8)).rejects.toMatchObject({
      name: 'NotOnSiteError',
      retriever: 'minilm:q8',
    });
    expect(made).toHaveLength(2);
  });
});

const pinned: SitePackEntry = {
  model: 'tiny-bert',
  dtype: 'fp32',
  revision: 'sha256:x',
  file: 'tiny-bert-fp32.parquet',
  sha256: 'ab'.repeat(32),
  bytes: 10,
  rows: 1234,
  dim: 32,
  protocols: ['inmind-figure4', 'inmind'],
  inputs: 'cd'.repeat(32),
};

/** The site's packs over a dev server serving `vectors/index.json` and `files` (or nothing). */
function packsServing(index: unknown, files: Record<string, ArrayBuffer> = {}): SitePacks {
  return new SitePacks('https://site.test/', async (input) => {
    const rel = String(input).slice('https://site.test/'.length);
    if (rel === 'vectors/index.json' && index !== null) return new Response(JSON.stringify(index));
    const body = files[rel];
    return body ? new Response(new Uint8Array(body)) : new Response('no', { status: 404 });
  });
}

async function realPack(): Promise<{ entry: SitePackEntry; bytes: ArrayBuffer }> {
  const spec = getModelSpec('tiny-bert');
  const vectors = new Float32Array(spec.dims).fill(1 / Math.sqrt(spec.dims));
  const bytes = writeVectorPack(
    packRowsOf(parseModelRef('tiny-bert:fp32'), 'document', [await sha256Hex('a')], {
      dim: spec.dims,
      vectors,
    }),
  );
  return { entry: { ...pinned, sha256: await sha256Hex(new Uint8Array(bytes)) }, bytes };
}

describe("protocolCompute with the site's vectors", () => {
  const catalog = new Catalog(emptyEngine);
  const never = new AbortController().signal;
  const served = Promise.resolve(new Map([['tiny-bert', ['fp32'] as const]]));
  const view = (vectors?: string) =>
    readReproduceParams({ bench: 'inmind', ret: 'tiny-bert', ...(vectors ? { vectors } : {}) });

  it('draws from the pack without loading the model (here: until the tables are missing)', async () => {
    const { hub, made } = fakeHub();
    const { entry, bytes } = await realPack();
    const index = { format: SITE_PACKS_FORMAT, packs: [entry] };
    const packs = packsServing(index, { 'vectors/tiny-bert-fp32.parquet': bytes });
    const compute = protocolCompute({ hub, served, packs });
    await expect(compute(catalog, view(), never, () => undefined)).rejects.toBeInstanceOf(
      MissingTablesError,
    );
    expect(made).toHaveLength(0);
  });

  it('embeds instead when the pack cannot be read (its bytes are not served)', async () => {
    const { hub, made } = fakeHub();
    const packs = packsServing({ format: SITE_PACKS_FORMAT, packs: [pinned] });
    const compute = protocolCompute({ hub, served, packs });
    await expect(compute(catalog, view(), never, () => undefined)).rejects.toBeInstanceOf(
      MissingTablesError,
    );
    expect(made).toHaveLength(1);
  });

  it('recomputes with the model when the URL says vectors=browser', async () => {
    const { hub, made } = fakeHub();
    const packs = packsServing({ format: SITE_PACKS_FORMAT, packs: [pinned] });
    const compute = protocolCompute({ hub, served, packs });
    expect(view('browser').vectors).toBe('browser');
    expect(view('nonsense').vectors).toBe('site');
    await expect(compute(catalog, view('browser'), never, () => undefined)).rejects.toBeInstanceOf(
      MissingTablesError,
    );
    expect(made.map((m) => m.request.model.id)).toEqual(['tiny-bert']);
  });

  it('embeds as before where the site has no packs', async () => {
    const { hub, made } = fakeHub();
    const compute = protocolCompute({ hub, served, packs: packsServing(null) });
    await expect(compute(catalog, view(), never, () => undefined)).rejects.toBeInstanceOf(
      MissingTablesError,
    );
    expect(made).toHaveLength(1);
  });

  it('says where the vectors came from, with the pack’s digest', () => {
    expect(vectorSourceLine({ kind: 'site', pack: pinned }, 'tiny-bert', '')).toBe(
      "From the site's vectors (tiny-bert, fp32, sha256 abababababab…): 1,234 vectors embedded with onnxruntime-node cpu when the site was built; nothing was embedded in this browser.",
    );
    expect(
      vectorSourceLine(
        { kind: 'recomputed', pack: pinned, maxDeviation: 3.2e-7, compared: 1234, missing: 2 },
        'tiny-bert',
        'WASM',
      ),
    ).toBe(
      "Recomputed in this browser (WASM): max deviation from the site's vectors (fp32, sha256 abababababab…) 3.2e-7 over 1,234 vectors; 2 texts are not in the pack.",
    );
    expect(
      vectorSourceLine(
        { kind: 'recomputed', pack: pinned, maxDeviation: 0, compared: 1, missing: 1 },
        'tiny-bert',
        'WASM',
      ),
    ).toMatch(/ over 1 vector; 1 text is not in the pack\.$/);
    expect(vectorSourceLine({ kind: 'unreadable', error: 'HTTP 500' }, 'x', '')).toMatch(
      /could not be read \(HTTP 500\); embedded in this browser instead/,
    );
  });
});
