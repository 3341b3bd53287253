import { describe, expect, it } from 'vitest';
import { summarizeCaches } from '../../../src/lib/offline/messages.ts';
import {
  headline,
  modelsLine,
  offlineItems,
  unsavedModelBytes,
  type OfflineSnapshot,
} from '../../../src/lib/offline/status.ts';
import type { PrecacheManifest } from '../../../src/lib/offline/precache.ts';

const SCOPE = 'https://example.org/memlens/';
const manifest: PrecacheManifest = {
  version: 'v1',
  coi: true,
  precache: [
    { url: 'index.html', bytes: 600, sha256: 'h-index.html', group: 'shell' },
    { url: 'assets/duckdb-eh.wasm', bytes: 3 * 1024 * 1024, sha256: 'e', group: 'engine' },
    {
      url: 'data/inmind/inmind_en.jsonl',
      bytes: 2048,
      sha256: 'h-data/inmind/inmind_en.jsonl',
      group: 'data',
    },
  ],
  precacheBytes: 600 + 3 * 1024 * 1024 + 2048,
  models: [
    {
      id: 'tiny-bert',
      files: [
        { url: 'models/tiny-bert/config.json', bytes: 10 },
        { url: 'models/tiny-bert/onnx/model.onnx', bytes: 100 },
      ],
    },
    {
      id: 'minilm',
      files: [
        { url: 'models/minilm/config.json', bytes: 20 },
        { url: 'models/minilm/onnx/model.onnx', bytes: 200 },
        { url: 'models/minilm/onnx/model_quantized.onnx', bytes: 50 },
      ],
    },
  ],
  modelsVersion: 'm',
  upstream: [
    'https://raw.githubusercontent.com/a/b/c/x.json',
    'https://raw.githubusercontent.com/a/b/c/y.json',
  ],
};

const abs = (rel: string) => new URL(rel, SCOPE).href;

describe('summarizeCaches', () => {
  it('calls a model saved when its small files and one dtype of weights are', () => {
    const report = summarizeCaches(manifest, SCOPE, {
      precache: new Set(),
      models: new Set(
        ['models/minilm/config.json', 'models/minilm/onnx/model_quantized.onnx'].map(abs),
      ),
      upstream: new Set(),
    });
    expect(report.models.map((m) => [m.id, m.ready])).toEqual([
      ['tiny-bert', false],
      ['minilm', true],
    ]);
  });

  it('counts what each cache holds against the manifest', () => {
    const report = summarizeCaches(manifest, SCOPE, {
      precache: new Set([abs('index.html'), abs('data/inmind/inmind_en.jsonl')]),
      models: new Set([abs('models/tiny-bert/config.json')]),
      upstream: new Set([manifest.upstream[1]]),
    });
    expect(report.precache).toMatchObject({
      files: 3,
      cachedFiles: 2,
      complete: false,
      cachedBytes: 2648,
    });
    expect(report.groups.engine).toEqual({ files: 1, bytes: 3 * 1024 * 1024, cachedFiles: 0 });
    expect(report.groups.results).toEqual({ files: 0, bytes: 0, cachedFiles: 0 });
    expect(report.models).toEqual([
      { id: 'tiny-bert', files: 2, bytes: 110, cachedFiles: 1, cachedBytes: 10, ready: false },
      { id: 'minilm', files: 3, bytes: 270, cachedFiles: 0, cachedBytes: 0, ready: false },
    ]);
    expect(report.upstream).toEqual({ total: 2, cached: [manifest.upstream[1]] });
    expect(report.coi).toBe(true);
  });
});

describe('what the indicator says', () => {
  const base: OfflineSnapshot = {
    phase: 'ready',
    progress: null,
    report: null,
    updateReady: false,
    error: '',
    online: true,
    modelSave: null,
    modelSaveError: '',
  };

  it('gives one headline per phase, and says when the saved copy is in use', () => {
    expect(headline(base)).toBe('Available offline');
    expect(headline({ ...base, online: false })).toBe('Offline: using the saved copy');
    expect(headline({ ...base, phase: 'installing', progress: { done: 3, total: 9 } })).toBe(
      'Saving for offline: 3 of 9 files',
    );
    expect(headline({ ...base, phase: 'unsupported' })).toMatch(/not supported/);
    expect(headline({ ...base, phase: 'off' })).toMatch(/development/);
  });

  it('lists the groups, then each model with whether it is saved', () => {
    const report = summarizeCaches(manifest, SCOPE, {
      precache: new Set(manifest.precache.map((e) => abs(e.url))),
      models: new Set(
        [
          'models/tiny-bert/config.json',
          'models/tiny-bert/onnx/model.onnx',
          'models/minilm/onnx/model_quantized.onnx',
        ].map(abs),
      ),
      upstream: new Set(),
    });
    expect(report.models.map((m) => m.ready)).toEqual([true, false]);
    const items = offlineItems(report);
    expect(items.map((i) => i.label)).toEqual([
      'App, pages and charts',
      'DuckDB and ONNX runtimes (WASM)',
      'Bundled benchmark files',
      'Model tiny-bert',
      'Model minilm',
    ]);
    expect(items[1]).toMatchObject({ ready: true, detail: '1 of 1 files, 3.0 MiB' });
    expect(items[3]).toMatchObject({ ready: true, detail: 'saved (2 of 2 files)' });
    expect(items[4]).toMatchObject({ ready: false });
    expect(items[4].detail).toBe(
      'not saved: Save for offline keeps it (220 B to go), or it is kept once used',
    );
    expect(unsavedModelBytes(report)).toBe(220);
  });

  it('says after the headline whether the models are saved, and how far a save has come', () => {
    const all = (names: string[]) =>
      summarizeCaches(manifest, SCOPE, {
        precache: new Set(manifest.precache.map((e) => abs(e.url))),
        models: new Set(names.map(abs)),
        upstream: new Set(),
      });
    const none = all([]);
    const every = all(manifest.models.flatMap((m) => m.files.map((f) => f.url)));
    expect(modelsLine({ ...base, report: none })).toBe('models not saved');
    expect(modelsLine({ ...base, report: every })).toBe('models saved');
    expect(unsavedModelBytes(every)).toBe(0);
    expect(modelsLine({ ...base, report: none, phase: 'installing' })).toBe('');
    expect(modelsLine({ ...base, report: { ...none, models: [] } })).toBe('');
    expect(
      modelsLine({ ...base, report: none, modelSave: { doneBytes: 55, totalBytes: 220 } }),
    ).toBe('saving models 25%');
  });
});
