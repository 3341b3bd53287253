import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import type { Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { sitePackFixture, unitRows } from './site-pack-fixture.ts';
import {
  PackMissError,
  SITE_PACKS_FORMAT,
  SitePackError,
  SitePacks,
  findSitePack,
  maxDeviation,
  packFirst,
  parseSitePackIndex,
  sitePackFile,
  sitePackVectors,
  type SitePackEntry,
} from '../../../src/lib/vectors/site-packs.ts';

const spec = getModelSpec('tiny-bert');
const texts = ['first memory', 'second memory', 'a query'];
const base = 'https://site.test/memlens/';

const VECTORS = unitRows(texts.length, spec.dims, Math.cos);
const fixture = () => sitePackFixture(spec, texts, VECTORS);

async function packBytes(): Promise<ArrayBuffer> {
  return (await fixture()).bytes;
}

/** The index entry of `bytes` (the fixture's pack, or other bytes under its name). */
async function entryOf(bytes: ArrayBuffer): Promise<SitePackEntry> {
  const { entry } = await fixture();
  return { ...entry, sha256: await sha256Hex(new Uint8Array(bytes)), bytes: bytes.byteLength };
}

/** A site serving `files` (path under the base → body); anything else is a 404. */
function site(files: Record<string, BodyInit>): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  const fetchImpl: typeof fetch = async (input) => {
    const rel = String(input).slice(base.length);
    asked.push(rel);
    const body = files[rel];
    return body === undefined ? new Response('no', { status: 404 }) : new Response(body);
  };
  return { fetch: fetchImpl, asked };
}

describe('the site vector index', () => {
  it('parses, finds a model’s pack by model and dtype, and names the one file name', async () => {
    const entry = await entryOf(await packBytes());
    const index = parseSitePackIndex({ format: SITE_PACKS_FORMAT, packs: [entry] });
    expect(findSitePack(index, 'tiny-bert', 'fp32')).toEqual(entry);
    expect(findSitePack(index, 'tiny-bert', 'q8')).toBeNull();
    expect(sitePackFile('tiny-bert', 'fp32')).toBe('tiny-bert-fp32.parquet');
  });

  it("finds the pack that holds a protocol's views; InMind's first without one; LoCoMo's on first use", async () => {
    const inmind = await entryOf(await packBytes());
    const conv = {
      ...inmind,
      file: sitePackFile('tiny-bert', 'fp32', 'locomo-conv'),
      protocols: ['locomo-conv'],
    };
    const index = parseSitePackIndex({ format: SITE_PACKS_FORMAT, packs: [inmind, conv] });
    expect(findSitePack(index, 'tiny-bert', 'fp32')).toEqual(inmind);
    expect(findSitePack(index, 'tiny-bert', 'fp32', 'locomo-conv')).toEqual(conv);
    expect(findSitePack(index, 'tiny-bert', 'fp32', inmind.protocols[0])).toEqual(inmind);
    expect(findSitePack(index, 'tiny-bert', 'fp32', 'locomo')).toBeNull();
    expect(conv.file).toBe('tiny-bert-fp32-locomo-conv.on-use.parquet');
  });

  it('names the entry and field that are wrong, and refuses a file outside vectors/', async () => {
    const entry = await entryOf(await packBytes());
    expect(() => parseSitePackIndex({ format: 'other' })).toThrow(/not a site vector index/);
    expect(() =>
      parseSitePackIndex({ format: SITE_PACKS_FORMAT, packs: [{ ...entry, sha256: 'x' }] }),
    ).toThrow('vectors/index.json packs[0]: "sha256" is not a sha256');
    expect(() =>
      parseSitePackIndex({ format: SITE_PACKS_FORMAT, packs: [{ ...entry, file: '../x' }] }),
    ).toThrow(SitePackError);
  });
});

describe('a pack’s vectors', () => {
  it('answer the texts it holds, in order, and throw PackMissError for any other', async () => {
    const bytes = await packBytes();
    const vectors = await sitePackVectors(await entryOf(bytes), bytes, spec);
    expect(vectors.size).toBe(3);
    const embedder = vectors.embedder(spec);
    const m = await embedder.embed(['a query', 'first memory'], { kind: 'document' });
    expect(m.count).toBe(2);
    expect(Array.from(m.vectors.subarray(0, 2))).toEqual([
      VECTORS[2 * spec.dims],
      VECTORS[2 * spec.dims + 1],
    ]);
    await expect(embedder.embed(['unknown'], { kind: 'document' })).rejects.toBeInstanceOf(
      PackMissError,
    );
  });

  it('answer first through packFirst: only the texts the pack lacks reach the model, in input order', async () => {
    const bytes = await packBytes();
    const vectors = await sitePackVectors(await entryOf(bytes), bytes, spec);
    const asked: string[][] = [];
    const model: Embedder = {
      spec,
      backend: 'wasm',
      async embed(batch) {
        asked.push([...batch]);
        return {
          dim: spec.dims,
          count: batch.length,
          vectors: new Float32Array(batch.length * spec.dims).fill(7),
        };
      },
      dispose: async () => undefined,
    };
    const counts = { fromPack: 0, embedded: 0 };
    const progress: number[][] = [];
    const both = packFirst(model, vectors, counts);
    const m = await both.embed(['typed', 'second memory', 'also typed'], {
      kind: 'document',
      onProgress: (p) => progress.push([p.done, p.total, p.cached]),
    });
    expect(asked).toEqual([['typed', 'also typed']]);
    expect(counts).toEqual({ fromPack: 1, embedded: 2 });
    expect(m.count).toBe(3);
    expect(m.vectors[0]).toBe(7);
    expect(m.vectors[spec.dims]).toBe(VECTORS[spec.dims]);
    expect(m.vectors[2 * spec.dims]).toBe(7);
    // The model's own progress reports no rows, so only the pack's final line shows.
    await both.embed(['first memory'], {
      kind: 'document',
      onProgress: (p) => progress.push([p.done, p.total, p.cached]),
    });
    expect(asked).toHaveLength(1);
    expect(progress).toEqual([[1, 1, 1]]);
  });

  it('refuses bytes that are not the ones the index pins', async () => {
    const bytes = await packBytes();
    const entry = { ...(await entryOf(bytes)), sha256: '0'.repeat(64) };
    await expect(sitePackVectors(entry, bytes, spec)).rejects.toThrow(
      /vectors\/tiny-bert-fp32\.parquet: sha256 .* is not the index's 000000000000…/,
    );
  });

  it('measure the largest component deviation, and count rows the pack lacks', () => {
    const a = Float32Array.of(1, 0.5);
    expect(maxDeviation([a, a], [Float32Array.of(1, 0.25), undefined])).toEqual({
      max: 0.25,
      compared: 1,
      missing: 1,
    });
  });
});

describe('SitePacks', () => {
  it('reads the index the build lists, fetches a pack once, and checks it', async () => {
    const bytes = await packBytes();
    const entry = await entryOf(bytes);
    const manifest = { models: [], precache: [{ url: 'vectors/index.json' }] };
    const { fetch, asked } = site({
      'precache-manifest.json': JSON.stringify(manifest),
      'vectors/index.json': JSON.stringify({ format: SITE_PACKS_FORMAT, packs: [entry] }),
      'vectors/tiny-bert-fp32.parquet': new Uint8Array(bytes),
    });
    const packs = new SitePacks(base, fetch);
    const found = await packs.find('tiny-bert', 'fp32');
    expect(found).toEqual(entry);
    if (!found) return;
    const [one, two] = await Promise.all([packs.vectors(found, spec), packs.vectors(found, spec)]);
    expect(one).toBe(two);
    expect(asked.filter((p) => p.endsWith('.parquet'))).toHaveLength(1);
  });

  it("gives a model's vectors by model and dtype, the same object as vectors(), null where none", async () => {
    const bytes = await packBytes();
    const entry = await entryOf(bytes);
    const { fetch } = site({
      'vectors/index.json': JSON.stringify({ format: SITE_PACKS_FORMAT, packs: [entry] }),
      'vectors/tiny-bert-fp32.parquet': new Uint8Array(bytes),
    });
    const packs = new SitePacks(base, fetch);
    const vectors = await packs.vectorsOf('tiny-bert', 'fp32', spec);
    expect(vectors?.entry).toEqual(entry);
    expect(vectors).toBe(await packs.vectors(entry, spec));
    expect(await packs.vectorsOf('tiny-bert', 'q8', spec)).toBeNull();
  });

  it('asks for no index the build does not list (no 404 in the console)', async () => {
    const { fetch, asked } = site({
      'precache-manifest.json': JSON.stringify({ models: [], precache: [] }),
    });
    expect(await new SitePacks(base, fetch).list()).toBeNull();
    expect(asked).toEqual(['precache-manifest.json']);
  });

  it('without a build list (the dev server), a missing index is no packs', async () => {
    const { fetch } = site({});
    expect(await new SitePacks(base, fetch).find('tiny-bert', 'fp32')).toBeNull();
    const fallback: typeof globalThis.fetch = async () =>
      new Response('<!doctype html><div id="app"></div>', {
        headers: { 'content-type': 'text/html' },
      });
    expect(await new SitePacks(base, fallback).list()).toBeNull();
  });

  it('names an index that is not JSON', async () => {
    const { fetch } = site({ 'vectors/index.json': '{ nope' });
    await expect(new SitePacks(base, fetch).list()).rejects.toThrow(
      /^vectors\/index\.json: not JSON/,
    );
  });

  it('names a pack that stalls after its first bytes, and one whose server never answers', async () => {
    const bytes = await packBytes();
    const entry = await entryOf(bytes);
    const index = JSON.stringify({ format: SITE_PACKS_FORMAT, packs: [entry] });
    // The first 1,000 bytes, then nothing until the reader goes away.
    const stalling: typeof fetch = async (input, init) => {
      const rel = String(input).slice(base.length);
      if (rel !== 'vectors/tiny-bert-fp32.parquet')
        return site({ 'vectors/index.json': index }).fetch(input);
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new Uint8Array(bytes.slice(0, 1000)));
          init?.signal?.addEventListener('abort', () => c.error(init.signal?.reason));
        },
      });
      return new Response(body);
    };
    const packs = new SitePacks(base, stalling, { stallMs: 30 });
    await expect(packs.vectors(entry, spec)).rejects.toThrow(
      'vectors/tiny-bert-fp32.parquet: no byte after the first 1000 B for 0.03 s, so the download was stopped; the server stalled',
    );
    const silent: typeof fetch = (_input, init) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    await expect(new SitePacks(base, silent, { stallMs: 30 }).list()).rejects.toThrow(
      'vectors/index.json: no byte for 0.03 s, so the download was stopped; the server stalled',
    );
  });

  it('lets a slow pack through: the time-out is on progress, not on the whole download', async () => {
    const bytes = new Uint8Array(await packBytes());
    const entry = await entryOf(bytes.buffer);
    const index = JSON.stringify({ format: SITE_PACKS_FORMAT, packs: [entry] });
    // A chunk every 10 ms: longer in all than the 40 ms bound, never 40 ms without a byte.
    const slow: typeof fetch = async (input) => {
      const rel = String(input).slice(base.length);
      if (rel !== 'vectors/tiny-bert-fp32.parquet')
        return site({ 'vectors/index.json': index }).fetch(input);
      const step = Math.ceil(bytes.length / 12);
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 10));
          if (at >= bytes.length) return c.close();
          c.enqueue(bytes.slice(at, at + step));
          at += step;
        },
      });
      return new Response(body);
    };
    const packs = new SitePacks(base, slow, { stallMs: 40 });
    expect((await packs.vectors(entry, spec)).size).toBe(texts.length);
  });
});
