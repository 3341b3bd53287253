import { describe, expect, it } from 'vitest';
import { loadSiteManifest } from '../../../src/lib/offline/site-files.ts';
import type { PrecacheManifest } from '../../../src/lib/offline/precache.ts';

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

describe('which model files the site serves, from its manifest', () => {
  it('reads the manifest, and returns null where the site has none', async () => {
    const body = JSON.stringify({ ...manifest, precache: [] });
    const ok = (async () => new Response(body)) as typeof fetch;
    expect((await loadSiteManifest('https://x.org/memlens/', ok))?.models).toHaveLength(1);
    const missing = (async () => new Response('no', { status: 404 })) as typeof fetch;
    expect(await loadSiteManifest('https://x.org/memlens/', missing)).toBeNull();
    const broken = (async () => new Response('{"precache": 1}')) as typeof fetch;
    expect(await loadSiteManifest('https://x.org/memlens/', broken)).toBeNull();
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await loadSiteManifest('https://x.org/memlens/', offline)).toBeNull();
  });
});
