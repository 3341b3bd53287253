import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  AssetIntegrityError,
  checkedBytes,
  checkedBytesHealing,
  expectedDigest,
  loadBuildDigests,
} from '../../../src/lib/offline/checked-assets.ts';

const BASE = 'https://x.org/memlens/';
const WORKER = `${BASE}assets/embed-worker-abc.js`;
const good = new TextEncoder().encode('self.onmessage = () => undefined;');
const hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const flipped = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => {
  const copy = new Uint8Array(bytes);
  copy[3] ^= 1;
  return copy;
};

const manifest = JSON.stringify({
  models: [],
  precache: [{ url: 'assets/embed-worker-abc.js', bytes: good.length, sha256: hex(good) }],
  fallback: [{ url: 'assets/duckdb-mvp-x.wasm', bytes: 1, sha256: 'f'.repeat(64) }],
});

/** Answers each request with the next body in turn, recording the cache mode asked for. */
function serving(...bodies: Uint8Array<ArrayBuffer>[]) {
  const modes: (RequestCache | undefined)[] = [];
  const fetchImpl = (async (_url: string, init?: RequestInit) => {
    modes.push(init?.cache);
    return new Response(bodies[Math.min(modes.length - 1, bodies.length - 1)]);
  }) as typeof fetch;
  return { fetchImpl, modes };
}

describe('the build digests that scripts and wasm are checked against', () => {
  it('lists precached and fallback files by absolute URL', async () => {
    const digests = await loadBuildDigests(
      BASE,
      true,
      (async () => new Response(manifest)) as typeof fetch,
    );
    expect(expectedDigest(digests, WORKER)).toBe(hex(good));
    expect(expectedDigest(digests, `${BASE}assets/duckdb-mvp-x.wasm`)).toBe('f'.repeat(64));
  });

  it('refuses a file a build does not list, and a build without its manifest', async () => {
    const digests = await loadBuildDigests(
      BASE,
      true,
      (async () => new Response(manifest)) as typeof fetch,
    );
    expect(() => expectedDigest(digests, `${BASE}assets/other.js`)).toThrow(
      'other.js: not listed in this build',
    );
    const missing = (async () => new Response('<!doctype html>')) as typeof fetch;
    await expect(loadBuildDigests(BASE, true, missing)).rejects.toThrow(
      'precache-manifest.json could not be read',
    );
  });

  it('checks nothing under the dev server (no manifest, not a build)', async () => {
    const missing = (async () => new Response('<!doctype html>')) as typeof fetch;
    const digests = await loadBuildDigests(BASE, false, missing);
    expect(expectedDigest(digests, WORKER)).toBeNull();
  });
});

describe('checked bytes', () => {
  it('returns the bytes that hash to the digest', async () => {
    const { fetchImpl } = serving(good);
    expect(await checkedBytes(WORKER, hex(good), { fetchImpl })).toEqual(good);
  });

  it('names the file, its size and both digests on a flipped byte', async () => {
    const bad = flipped(good);
    const { fetchImpl } = serving(bad);
    const err = await checkedBytes(WORKER, hex(good), { fetchImpl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AssetIntegrityError);
    expect(String(err)).toContain(
      `embed-worker-abc.js: ${good.length} B whose sha256 is ${hex(bad).slice(0, 12)}…, not this build's ${hex(good).slice(0, 12)}…`,
    );
  });

  it('fetches once more past the caches after a bad copy, and reports a second failure', async () => {
    const healed = serving(flipped(good), good);
    expect(await checkedBytesHealing(WORKER, hex(good), undefined, healed.fetchImpl)).toEqual(good);
    expect(healed.modes).toEqual([undefined, 'reload']);
    const evicted: string[][] = [];
    const broken = serving(flipped(good));
    await expect(
      checkedBytesHealing(
        WORKER,
        hex(good),
        async (urls) => void evicted.push(urls),
        broken.fetchImpl,
      ),
    ).rejects.toThrow('embed-worker-abc.js');
    expect(evicted).toEqual([[WORKER]]);
    expect(broken.modes).toEqual([undefined, 'reload']);
  });

  it('names the file on an HTTP error or a failed fetch', async () => {
    const notFound = (async () => new Response('no', { status: 404 })) as typeof fetch;
    await expect(checkedBytes(WORKER, hex(good), { fetchImpl: notFound })).rejects.toThrow(
      'embed-worker-abc.js: HTTP 404',
    );
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(checkedBytes(WORKER, hex(good), { fetchImpl: offline })).rejects.toThrow(
      'embed-worker-abc.js: Failed to fetch',
    );
  });
});
