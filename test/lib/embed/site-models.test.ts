import { describe, expect, it } from 'vitest';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import {
  defaultServedModel,
  isServed,
  loadSiteModels,
  missingFromManifest,
  servedDtype,
  pageDtype,
  servedLabel,
} from '../../../src/lib/embed/site-models.ts';
import type { PrecacheManifest } from '../../../src/lib/offline/precache.ts';

const SITE = 'https://example.org/memlens/';

function manifestServing(paths: string[]): PrecacheManifest {
  const byModel = new Map<string, { url: string; bytes: number }[]>();
  for (const p of paths) {
    const id = p.split('/')[1];
    byModel.set(id, [...(byModel.get(id) ?? []), { url: p, bytes: 1 }]);
  }
  return {
    version: 'v',
    coi: false,
    precache: [],
    precacheBytes: 0,
    models: [...byModel].map(([id, files]) => ({ id, files })),
    modelsVersion: 'm',
    upstream: [],
  };
}

const modelPaths = (id: string, dtype: 'fp32' | 'q8') =>
  getModelSpec(id)
    .files.filter((f) => f.dtype === undefined || f.dtype === dtype)
    .map((f) => `models/${id}/${f.path}`);

function fetchingManifest(manifest: PrecacheManifest | null, requests: string[]): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    requests.push(`${init?.method ?? 'GET'} ${url}`);
    if (url.endsWith('precache-manifest.json')) {
      return manifest ? Response.json(manifest) : new Response('', { status: 404 });
    }
    return new Response('', { status: 404 });
  };
}

describe('loadSiteModels', () => {
  it('reads the build manifest once and asks for no model file', async () => {
    const requests: string[] = [];
    const manifest = manifestServing([
      ...modelPaths('minilm', 'q8'),
      ...modelPaths('tiny-bert', 'fp32'),
    ]);
    const models = await loadSiteModels(SITE, fetchingManifest(manifest, requests));
    expect(requests).toEqual([`GET ${SITE}precache-manifest.json`]);
    expect(models.get('minilm')?.dtypes).toEqual(['q8']);
    expect(models.get('bge-small')?.dtypes).toEqual([]);
    expect(isServed(models, 'minilm')).toBe(true);
    expect(isServed(models, 'minilm', 'fp32')).toBe(false);
    expect(isServed(models, 'bge-small')).toBe(false);
    expect(servedDtype(models, 'minilm', 'fp32')).toBe('q8');
    expect(servedDtype(models, 'bge-small', 'fp32')).toBeNull();
    // Every page embeds in the same dtype: fp32 where served, else what is.
    expect(pageDtype(models, 'minilm')).toBe('q8');
    expect(pageDtype(models, 'bge-small')).toBeNull();
  });

  it('without a manifest (dev server), asks for each file with HEAD', async () => {
    const requests: string[] = [];
    const models = await loadSiteModels(SITE, fetchingManifest(null, requests));
    expect(requests.some((r) => r.startsWith('HEAD ') && r.endsWith('onnx/model.onnx'))).toBe(true);
    expect([...models.values()].every((m) => m.dtypes.length === 0)).toBe(true);
  });

  it('labels and defaults never pick a model the site lacks', async () => {
    const manifest = manifestServing(modelPaths('tiny-bert', 'fp32'));
    const models = await loadSiteModels(SITE, fetchingManifest(manifest, []));
    const bge = getModelSpec('bge-small');
    expect(servedLabel(models, bge)).toBe('bge-small-en-v1.5 — not on this site');
    expect(servedLabel(models, bge, true)).toBe(
      'bge-small-en-v1.5 — not on this site (Hub download)',
    );
    expect(servedLabel(models, getModelSpec('tiny-bert'))).toBe(getModelSpec('tiny-bert').label);
    expect(defaultServedModel(models, ['bge-small'])).toBe('tiny-bert');
    const withMinilm = await loadSiteModels(
      SITE,
      fetchingManifest(manifestServing([...modelPaths('minilm', 'fp32')]), []),
    );
    expect(defaultServedModel(withMinilm, ['bge-small'])).toBe('minilm');
  });
});

describe('which model files the site serves, from its manifest', () => {
  const minilm = getModelSpec('minilm');
  const manifest: Pick<PrecacheManifest, 'models'> = {
    models: [
      {
        id: 'minilm',
        files: [
          'config.json',
          'tokenizer.json',
          'tokenizer_config.json',
          'onnx/model_quantized.onnx',
        ].map((p) => ({ url: `models/minilm/${p}`, bytes: 1 })),
      },
    ],
  };

  it('finds a dtype complete or names the missing files', () => {
    expect(missingFromManifest(manifest, minilm, 'q8')).toEqual([]);
    expect(missingFromManifest(manifest, minilm, 'fp32')).toEqual(['onnx/model.onnx']);
    expect(missingFromManifest({ models: [] }, getModelSpec('tiny-bert'), 'fp32')).toContain(
      'onnx/model.onnx',
    );
  });
});
