import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildPrecacheManifest,
  classifyAsset,
  fileUrl,
  groupTotals,
  type BuiltFile,
  type PrecacheManifest,
} from '../../../src/lib/offline/precache.ts';

const file = (path: string, bytes = 10, sha = 'a'): BuiltFile => ({ path, bytes, sha256: sha });

const BUILD: BuiltFile[] = [
  file('index.html', 600),
  file('assets/index-abc.js', 300_000),
  file('assets/index-abc.css', 4_000),
  file('assets/duckdb-eh-x.wasm', 34_000_000),
  file('assets/duckdb-browser-eh.worker-x.js', 770_000),
  file('assets/duckdb-mvp-y.wasm', 39_000_000),
  file('assets/duckdb-browser-mvp.worker-y.js', 840_000),
  file('assets/ort-wasm-simd-threaded.asyncify-z.wasm', 26_000_000),
  file('assets/ort-wasm-simd-threaded.asyncify-z.mjs', 53_000),
  file('assets/inmind-q.csv', 61_000),
  file('data/index.json', 200),
  file('data/inmind/inmind_en.jsonl', 163_925),
  file('models/tiny-bert/config.json', 457),
  file('models/tiny-bert/onnx/model.onnx', 223_221),
  file('sw.js', 8_000),
  file('precache-manifest.json', 4_000),
  file('.nojekyll', 0),
  file('assets/index-abc.js.map', 9),
];

describe('classifyAsset', () => {
  it('sorts each built file into a precache group, a runtime class or nothing', () => {
    expect(classifyAsset('index.html')).toBe('shell');
    expect(classifyAsset('assets/index-abc.js')).toBe('shell');
    expect(classifyAsset('assets/ort-wasm-simd-threaded.asyncify-z.mjs')).toBe('shell');
    expect(classifyAsset('assets/duckdb-eh-x.wasm')).toBe('engine');
    expect(classifyAsset('assets/ort-wasm-simd-threaded.asyncify-z.wasm')).toBe('engine');
    expect(classifyAsset('assets/inmind-q.csv')).toBe('results');
    expect(classifyAsset('data/locomo/locomo10.json')).toBe('data');
    expect(classifyAsset('models/minilm/onnx/model.onnx')).toBe('model');
    expect(classifyAsset('assets/duckdb-mvp-y.wasm')).toBe('fallback');
    expect(classifyAsset('vectors/minilm-fp32.parquet')).toBe('shell');
    expect(classifyAsset('vectors/minilm-fp32-locomo.on-use.parquet')).toBe('skip');
    expect(classifyAsset('assets/duckdb-browser-mvp.worker-y.js')).toBe('fallback');
    for (const skip of [
      'sw.js',
      'precache-manifest.json',
      '.nojekyll',
      'a/.hidden/x',
      'x.js.map',
    ]) {
      expect(classifyAsset(skip), skip).toBe('skip');
    }
  });

  it('percent-encodes each path segment', () => {
    expect(fileUrl('data/a b/c#d.json')).toBe('data/a%20b/c%23d.json');
  });
});

describe('buildPrecacheManifest', () => {
  let manifest: PrecacheManifest;
  beforeAll(async () => {
    manifest = await buildPrecacheManifest(BUILD, {
      coi: false,
      upstream: ['https://u/2', 'https://u/1'],
    });
  });

  it('precaches the shell, both wasm runtimes, results and data, and nothing else', () => {
    expect(manifest.precache.map((e) => e.url)).toEqual([
      'assets/duckdb-browser-eh.worker-x.js',
      'assets/duckdb-eh-x.wasm',
      'assets/index-abc.css',
      'assets/index-abc.js',
      'assets/inmind-q.csv',
      'assets/ort-wasm-simd-threaded.asyncify-z.mjs',
      'assets/ort-wasm-simd-threaded.asyncify-z.wasm',
      'data/index.json',
      'data/inmind/inmind_en.jsonl',
      'index.html',
    ]);
    expect(manifest.precache.every((e) => e.sha256 === 'a')).toBe(true);
    expect(manifest.precacheBytes).toBe(manifest.precache.reduce((s, e) => s + e.bytes, 0));
    const totals = groupTotals(manifest.precache);
    expect(totals.engine).toEqual({ files: 2, bytes: 60_000_000 });
    expect(totals.results.files).toBe(1);
  });

  it('lists the models the site serves, for caching on first use', () => {
    expect(manifest.models).toEqual([
      {
        id: 'tiny-bert',
        files: [
          { url: 'models/tiny-bert/config.json', bytes: 457 },
          { url: 'models/tiny-bert/onnx/model.onnx', bytes: 223_221 },
        ],
      },
    ]);
    expect(manifest.upstream).toEqual(['https://u/1', 'https://u/2']);
  });

  it('versions the cache by content: same files, same version; any change, a new one', async () => {
    const again = await buildPrecacheManifest([...BUILD].reverse(), {
      coi: false,
      upstream: ['https://u/1', 'https://u/2'],
    });
    expect(again.version).toBe(manifest.version);
    expect(manifest.version).toMatch(/^[0-9a-f]{16}$/);
    const changed = BUILD.map((f) => (f.path === 'index.html' ? { ...f, sha256: 'b' } : f));
    const plain = await buildPrecacheManifest(BUILD, { coi: false, upstream: [] });
    const edited = await buildPrecacheManifest(changed, { coi: false, upstream: [] });
    expect(edited.version).not.toBe(plain.version);
    const coi = await buildPrecacheManifest(BUILD, {
      coi: true,
      upstream: ['https://u/1', 'https://u/2'],
    });
    expect(coi.version).not.toBe(manifest.version);
    const model = BUILD.map((f) => (f.path.endsWith('.onnx') ? { ...f, sha256: 'b' } : f));
    const m2 = await buildPrecacheManifest(model, {
      coi: false,
      upstream: ['https://u/1', 'https://u/2'],
    });
    expect(m2.version).toBe(manifest.version);
    expect(m2.modelsVersion).not.toBe(manifest.modelsVersion);
  });
});
