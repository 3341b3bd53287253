import { describe, expect, it } from 'vitest';
import {
  modelsOfManifest,
  saveModelFiles,
  unsavedModelFiles,
  type SaveProgress,
} from '../../../src/lib/offline/save-models.ts';

const SCOPE = 'https://example.org/memlens/';
const manifest = {
  version: 'v1',
  modelsVersion: 'm1',
  models: [
    {
      id: 'minilm',
      files: [
        { url: 'models/minilm/config.json', bytes: 3 },
        { url: 'models/minilm/onnx/model.onnx', bytes: 5 },
      ],
    },
  ],
};

describe('unsavedModelFiles', () => {
  it('lists the files the models cache lacks, as absolute URLs, asking that cache by name', async () => {
    const asked: string[] = [];
    const files = await unsavedModelFiles(manifest, SCOPE, async (url, cacheName) => {
      asked.push(cacheName);
      return url.endsWith('config.json');
    });
    expect(files).toEqual([{ url: `${SCOPE}models/minilm/onnx/model.onnx`, bytes: 5 }]);
    expect(new Set(asked)).toEqual(new Set(['memlens-models-m1']));
  });
});

describe('saveModelFiles', () => {
  const files = [
    { url: `${SCOPE}a`, bytes: 3 },
    { url: `${SCOPE}b`, bytes: 5 },
  ];
  const served: typeof fetch = async (input) => {
    const url = String(input);
    return url.endsWith('/b') ? new Response(new Uint8Array(5)) : new Response(new Uint8Array(3));
  };

  it('reads each file whole and reports the bytes as they arrive', async () => {
    const seen: SaveProgress[] = [];
    await saveModelFiles(files, {
      fetchImpl: served,
      signal: new AbortController().signal,
      onProgress: (p) => seen.push(p),
    });
    expect(seen[0]).toEqual({ doneBytes: 0, totalBytes: 8 });
    expect(seen.at(-1)).toEqual({ doneBytes: 8, totalBytes: 8 });
  });

  it('stops at a file the site does not answer, naming it', async () => {
    const missing: typeof fetch = async () => new Response('', { status: 404 });
    await expect(
      saveModelFiles(files, {
        fetchImpl: missing,
        signal: new AbortController().signal,
        onProgress: () => undefined,
      }),
    ).rejects.toThrow('/memlens/a answered HTTP 404');
  });
});

describe('modelsOfManifest', () => {
  it('reads the models of a manifest and refuses anything else', () => {
    expect(modelsOfManifest(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
    expect(modelsOfManifest(null)).toBeNull();
    expect(modelsOfManifest({ ...manifest, version: 3 })).toBeNull();
    expect(
      modelsOfManifest({ ...manifest, models: [{ id: 'x', files: [{ url: 1 }] }] }),
    ).toBeNull();
  });
});
