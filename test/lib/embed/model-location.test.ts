import { describe, expect, it } from 'vitest';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import {
  MissingModelFilesError,
  locateModel,
  missingSiteFiles,
} from '../../../src/lib/embed/model-location.ts';

const SITE = 'https://example.org/memlens/';

/** A fetch that serves the listed paths (relative to the site) and 404s the rest. */
function siteServing(paths: string[], contentType = 'application/octet-stream') {
  const requested: string[] = [];
  const impl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof URL ? input.href : String(input);
    requested.push(`${init?.method ?? 'GET'} ${url}`);
    const ok = paths.some((p) => url === `${SITE}${p}`);
    return new Response(null, {
      status: ok ? 200 : 404,
      headers: { 'content-type': ok ? contentType : 'text/plain' },
    });
  };
  return { fetchImpl: impl as typeof fetch, requested };
}

const tiny = getModelSpec('tiny-bert');
const minilm = getModelSpec('minilm');
const tinyFiles = tiny.files.map((f) => `models/tiny-bert/${f.path}`);

describe('locating a model', () => {
  it('loads from the site when it serves every file, by a path transformers.js treats as local', async () => {
    const site = siteServing(tinyFiles);
    const location = await locateModel(tiny, 'fp32', {
      siteBase: SITE,
      allowRemote: false,
      fetchImpl: site.fetchImpl,
    });
    expect(location).toEqual({
      kind: 'site',
      loadId: 'tiny-bert',
      localModelPath: '/memlens/models/',
    });
    expect(site.requested.every((r) => r.startsWith('HEAD '))).toBe(true);
  });

  it('only checks the weights of the chosen dtype', async () => {
    const shared = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
    const site = siteServing(
      [...shared, 'onnx/model_quantized.onnx'].map((p) => `models/minilm/${p}`),
    );
    expect(await missingSiteFiles(minilm, 'q8', SITE, site.fetchImpl)).toEqual([]);
    expect(await missingSiteFiles(minilm, 'fp32', SITE, site.fetchImpl)).toEqual([
      'onnx/model.onnx',
    ]);
  });

  it('treats an HTML answer (a dev server SPA fallback) as missing, and says so', async () => {
    const site = siteServing(tinyFiles, 'text/html');
    const missing = await missingSiteFiles(tiny, 'fp32', SITE, site.fetchImpl);
    expect(missing).toHaveLength(tinyFiles.length);
    expect(missing).toContain('onnx/model.onnx (the server answered with an HTML page)');
  });

  it('names the missing files when the hub is not allowed', async () => {
    const site = siteServing(tinyFiles.filter((p) => !p.endsWith('/tokenizer.json')));
    const error = await locateModel(tiny, 'fp32', {
      siteBase: SITE,
      allowRemote: true,
      fetchImpl: site.fetchImpl,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingModelFilesError);
    expect(String(error)).toContain(
      'Model "tiny-bert" is missing tokenizer.json in https://example.org/memlens/models/tiny-bert/',
    );
    expect(String(error)).toContain('not on the Hugging Face Hub');
  });

  it('goes to the hub at the registry revision only when allowed', async () => {
    const site = siteServing([]);
    const options = { siteBase: SITE, fetchImpl: site.fetchImpl };
    await expect(locateModel(minilm, 'fp32', { ...options, allowRemote: false })).rejects.toThrow(
      /missing config\.json, tokenizer\.json, tokenizer_config\.json, onnx\/model\.onnx.*allow downloads/,
    );
    expect(await locateModel(minilm, 'fp32', { ...options, allowRemote: true })).toEqual({
      kind: 'hub',
      loadId: 'Xenova/all-MiniLM-L6-v2',
      revision: '751bff37182d3f1213fa05d7196b954e230abad9',
    });
  });
});
