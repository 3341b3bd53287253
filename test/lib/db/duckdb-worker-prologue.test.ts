import { describe, expect, it } from 'vitest';
import {
  duckdbWorkerPrologue,
  sriOfSha256Hex,
} from '../../../src/lib/db/duckdb-worker-prologue.ts';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const WASM = 'https://site.test/memlens/assets/duckdb-eh-abc.wasm';

/** Runs the prologue against a worker-like global whose fetch records what it was given. */
function runPrologue() {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const self: Record<string, unknown> = {
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      calls.push({ url, init });
      return Promise.resolve(new Response('ok'));
    },
    TransformStream,
  };
  new Function('self', duckdbWorkerPrologue(WASM, sriOfSha256Hex(EMPTY_SHA256)))(self);
  const fetchFn = self.fetch as (input: string | URL | Request, init?: RequestInit) => unknown;
  return { self, calls, fetchFn };
}

describe("DuckDB's worker prologue", () => {
  it('writes a sha256 as the integrity value fetch checks, and refuses anything else', () => {
    expect(sriOfSha256Hex(EMPTY_SHA256)).toBe(
      'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
    );
    expect(() => sriOfSha256Hex('abc')).toThrow('not a sha256: abc');
  });

  it("adds the digest to the wasm's fetch only, keeping DuckDB's own options, and hides TransformStream", async () => {
    const { self, calls, fetchFn } = runPrologue();
    await fetchFn(WASM, { credentials: 'same-origin' });
    await fetchFn(new URL(WASM));
    await fetchFn('https://site.test/memlens/data/other.json');
    expect(calls.map((c) => c.init?.integrity ?? null)).toEqual([
      'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
      'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
      null,
    ]);
    expect(calls[0].init?.credentials).toBe('same-origin');
    expect(self.TransformStream).toBeUndefined();
  });

  it('quotes the URL as data, so no URL can break out of the prologue', () => {
    const odd = 'https://x.test/a\'";alert(1)//.wasm';
    const code = duckdbWorkerPrologue(odd, sriOfSha256Hex(EMPTY_SHA256));
    expect(code).toContain(JSON.stringify(odd));
    expect(() => new Function('self', code)({ fetch: () => undefined })).not.toThrow();
  });
});
