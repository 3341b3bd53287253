import { describe, expect, it } from 'vitest';
import {
  duckdbWorkerPrologue,
  sriOfSha256Hex,
} from '../../../src/lib/db/duckdb-worker-prologue.ts';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SRI = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
const WASM = 'https://site.test/memlens/assets/duckdb-eh-abc.wasm';

/** A module importing env.f and exporting g, which calls it: instantiating it shows the imports. */
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02, 0x09,
  0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x66, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x07, 0x05, 0x01,
  0x01, 0x67, 0x00, 0x01, 0x0a, 0x06, 0x01, 0x04, 0x00, 0x10, 0x00, 0x0b,
]);

type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
type Instantiated = { module: WebAssembly.Module; instance: WebAssembly.Instance };
type InstantiateStreaming = (
  source: Response | PromiseLike<Response>,
  imports: WebAssembly.Imports,
) => Promise<Instantiated>;

const wasmResponse = () =>
  new Response(MODULE, { headers: { 'content-type': 'application/wasm' } });

/**
 * Runs the prologue against a worker-like global: its fetch records what it was given and answers
 * the module (or fails, with `failWasm`), its WebAssembly is the real one's functions in an object
 * of its own, so the prologue's wrapper stays in it.
 */
function runPrologue(opts: { failWasm?: boolean; noStreaming?: boolean } = {}) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const passedThrough: Response[] = [];
  /** What the prologue scheduled on the worker's timer, run by the test. */
  const timers: (() => void)[] = [];
  const wa = {
    compileStreaming: opts.noStreaming ? undefined : WebAssembly.compileStreaming,
    instantiate: WebAssembly.instantiate,
    instantiateStreaming: (source: Response | PromiseLike<Response>) =>
      Promise.resolve(source).then((res) => {
        passedThrough.push(res);
        return { passedThrough: true };
      }),
  };
  const self: Record<string, unknown> = {
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      calls.push({ url, init });
      if (url === WASM && opts.failWasm) return Promise.reject(new TypeError('integrity'));
      return Promise.resolve(url === WASM ? wasmResponse() : new Response('ok'));
    },
    WebAssembly: wa,
    TransformStream,
    setTimeout: (fn: () => void) => timers.push(fn),
  };
  new Function('self', duckdbWorkerPrologue(WASM, sriOfSha256Hex(EMPTY_SHA256)))(self);
  const fetchFn = self.fetch as FetchFn;
  const instantiateStreaming = wa.instantiateStreaming as unknown as InstantiateStreaming;
  return { self, calls, fetchFn, instantiateStreaming, passedThrough, timers };
}

describe("DuckDB's worker prologue", () => {
  it('writes a sha256 as the integrity value fetch checks, and refuses anything else', () => {
    expect(sriOfSha256Hex(EMPTY_SHA256)).toBe(SRI);
    expect(() => sriOfSha256Hex('abc')).toThrow('not a sha256: abc');
  });

  it('fetches the wasm with the digest as integrity as soon as it runs, before DuckDB asks', () => {
    const { calls, self } = runPrologue();
    expect(calls).toEqual([{ url: WASM, init: { credentials: 'same-origin', integrity: SRI } }]);
    expect(self.TransformStream).toBeUndefined();
  });

  it("hands DuckDB's fetch of the wasm that response, and its instantiateStreaming the module compiled from it", async () => {
    const { calls, fetchFn, instantiateStreaming, passedThrough } = runPrologue();
    let called = 0;
    const imports = { env: { f: () => void called++ } };
    const { module, instance } = await instantiateStreaming(
      fetchFn(new Request(WASM), { credentials: 'same-origin' }),
      imports,
    );
    expect(module).toBeInstanceOf(WebAssembly.Module);
    const g = instance.exports.g;
    if (typeof g !== 'function') throw new Error('no export g');
    g();
    expect(called).toBe(1);
    expect(calls).toHaveLength(1);
    expect(passedThrough).toEqual([]);
  });

  it('lets a later fetch of the wasm, other files and other responses through, the wasm still with its digest', async () => {
    const { calls, fetchFn, instantiateStreaming, passedThrough } = runPrologue();
    await fetchFn(WASM);
    await fetchFn(new URL(WASM), { credentials: 'same-origin' });
    await fetchFn('https://site.test/memlens/data/other.json', { cache: 'no-store' });
    expect(calls.map((c) => [c.url, c.init?.integrity ?? null])).toEqual([
      [WASM, SRI],
      [WASM, SRI],
      ['https://site.test/memlens/data/other.json', null],
    ]);
    expect(calls[1].init?.credentials).toBe('same-origin');
    expect(calls[2].init?.cache).toBe('no-store');
    const other = wasmResponse();
    await instantiateStreaming(other, {});
    expect(passedThrough).toEqual([other]);
  });

  it("fails DuckDB's instantiate when the wasm's fetch fails (a digest that does not match)", async () => {
    const { fetchFn, instantiateStreaming } = runPrologue({ failWasm: true });
    await expect(instantiateStreaming(fetchFn(WASM), {})).rejects.toThrow('integrity');
  });

  it('throws a failed fetch in the worker scope as well, so the page hears of it at once', async () => {
    const { timers } = runPrologue({ failWasm: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers).toHaveLength(1);
    expect(() => timers[0]()).toThrow(`${WASM} could not be fetched and compiled: integrity`);
  });

  it('schedules nothing when the wasm arrives and compiles', async () => {
    const { timers, fetchFn, instantiateStreaming } = runPrologue();
    await instantiateStreaming(fetchFn(WASM), { env: { f: () => undefined } });
    expect(timers).toEqual([]);
  });

  it("fetches nothing early where the browser cannot compile a stream; DuckDB's own fetch carries the digest", async () => {
    const { calls, fetchFn, passedThrough, instantiateStreaming } = runPrologue({
      noStreaming: true,
    });
    expect(calls).toEqual([]);
    await instantiateStreaming(fetchFn(WASM, { credentials: 'same-origin' }), {});
    expect(calls).toEqual([{ url: WASM, init: { credentials: 'same-origin', integrity: SRI } }]);
    expect(passedThrough).toHaveLength(1);
  });

  it('quotes the URL as data, so no URL can break out of the prologue', () => {
    const odd = 'https://x.test/a\'";alert(1)//.wasm';
    const code = duckdbWorkerPrologue(odd, sriOfSha256Hex(EMPTY_SHA256));
    expect(code).toContain(JSON.stringify(odd));
    const self = {
      fetch: () => Promise.resolve(new Response('')),
      WebAssembly: { instantiateStreaming: () => undefined },
    };
    expect(() => new Function('self', code)(self)).not.toThrow();
  });
});
