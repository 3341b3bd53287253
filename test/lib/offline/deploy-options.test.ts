import { describe, expect, it } from 'vitest';
import { SITE_INDEX_FILE, SOURCES, sitePathOf } from '../../../src/lib/data/sources.ts';
import {
  SITE_INDEX_PATH,
  deployOptionsFromEnv,
  indexWithout,
  oversizedModelFiles,
  unbundledPaths,
  upstreamUrls,
} from '../../../src/lib/offline/deploy-options.ts';

describe('deploy options from the environment', () => {
  it('bundles everything and stays local by default', () => {
    expect(deployOptionsFromEnv({})).toEqual({
      redistributableOnly: false,
      allowUpstream: false,
      coi: false,
      maxModelFileBytes: null,
      siteVectors: true,
    });
    expect(deployOptionsFromEnv({ MEMLENS_SITE_VECTORS: 'off' }).siteVectors).toBe(false);
  });

  it('lets the browser fetch upstream once non-redistributable files are left out', () => {
    expect(deployOptionsFromEnv({ MEMLENS_REDISTRIBUTABLE_ONLY: '1', MEMLENS_COI: 'sw' })).toEqual({
      redistributableOnly: true,
      allowUpstream: true,
      coi: true,
      maxModelFileBytes: null,
      siteVectors: true,
    });
    expect(
      deployOptionsFromEnv({ MEMLENS_REDISTRIBUTABLE_ONLY: 'true', MEMLENS_ALLOW_UPSTREAM: '0' })
        .allowUpstream,
    ).toBe(false);
    expect(deployOptionsFromEnv({ MEMLENS_ALLOW_UPSTREAM: 'yes' }).allowUpstream).toBe(true);
  });
});

describe('GitHub Pages per-file limit', () => {
  it('leaves out model files over MEMLENS_MAX_FILE_MB and nothing else', () => {
    const limit = deployOptionsFromEnv({ MEMLENS_MAX_FILE_MB: '100' }).maxModelFileBytes;
    expect(limit).toBe(100 * 1024 * 1024);
    const files = [
      { path: 'models/bge-small/onnx/model.onnx', bytes: 133_093_490 },
      { path: 'models/bge-small/onnx/model_quantized.onnx', bytes: 34_014_426 },
      { path: 'models/minilm/onnx/model.onnx', bytes: 90_364_477 },
      { path: 'assets/duckdb-eh.wasm', bytes: 200 * 1024 * 1024 },
    ];
    expect(oversizedModelFiles(files, limit)).toEqual(['models/bge-small/onnx/model.onnx']);
    expect(oversizedModelFiles(files, null)).toEqual([]);
  });
});

describe('what a deploy build leaves out', () => {
  it('removes exactly the files whose licence does not allow redistribution', () => {
    const paths = unbundledPaths(SOURCES);
    for (const s of SOURCES) {
      expect(paths.includes(`data/${s.dataset}/${s.file}`), s.id).toBe(!s.redistributable);
    }
    expect(paths).toEqual(SOURCES.filter((s) => !s.redistributable).map(sitePathOf));
    expect(SITE_INDEX_PATH).toBe(`data/${SITE_INDEX_FILE}`);
    expect(paths).toContain('data/inmind/inmind_en.jsonl');
    expect(paths).toContain('data/inmind/lme_s_background.jsonl');
    expect(paths).not.toContain('data/locomo/locomo10.json');
  });

  it('rewrites the site index so the browser goes upstream for them', () => {
    const all = { files: SOURCES.map((s) => s.id) };
    expect(indexWithout(all, SOURCES)).toEqual({
      files: SOURCES.filter((s) => s.redistributable).map((s) => s.id),
    });
    expect(indexWithout({}, SOURCES)).toEqual({ files: [] });
  });

  it('lists every pinned upstream URL for the worker to keep', () => {
    const urls = upstreamUrls(SOURCES);
    expect(urls.length).toBe(SOURCES.filter((s) => s.url).length);
    for (const u of urls)
      expect(u).toMatch(/^https:\/\/raw\.githubusercontent\.com\/.+\/[0-9a-f]{40}\//);
  });
});
