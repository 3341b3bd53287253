import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChecksumError, IntegrityError } from '../../../src/lib/data/integrity.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import {
  checkModelFile,
  describeChecked,
  modelBaseUrl,
  modelFilePins,
} from '../../../src/lib/embed/model-integrity.ts';
import type { ModelLocation } from '../../../src/lib/embed/model-location.ts';

const SITE: ModelLocation = {
  kind: 'site',
  loadId: 'tiny-bert',
  localModelPath: '/memlens/models/',
};
const tiny = getModelSpec('tiny-bert');
const minilm = getModelSpec('minilm');
const bge = getModelSpec('bge-small');
const hubOf = (repo: string, revision: string): ModelLocation => ({
  kind: 'hub',
  loadId: repo,
  revision,
});
const fixture = (file: string) =>
  new Uint8Array(readFileSync(path.resolve('test/fixtures/models/tiny-bert', file)));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('model file pins', () => {
  it('pins every tiny-bert and MiniLM site file by size and sha256, as the fixture is', () => {
    const pins = modelFilePins(tiny, 'fp32', SITE);
    expect(pins.map((p) => p.label)).toContain('models/tiny-bert/onnx/model.onnx');
    for (const pin of pins) {
      const bytes = fixture(pin.path);
      expect(pin).toMatchObject({ sha256: sha(bytes), bytes: bytes.length });
    }
    const site = { ...SITE, loadId: 'minilm' };
    for (const pin of modelFilePins(minilm, 'q8', site)) {
      expect(pin.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(pin.bytes).toBeGreaterThan(0);
    }
  });

  it('pins the Hub bytes where known (hubSha256), and nothing for BGE-small', () => {
    const { revision, repo } = minilm.hub ?? { repo: '', revision: '' };
    const pins = modelFilePins(minilm, 'q8', hubOf(repo, revision));
    const byPath = new Map(pins.map((p) => [p.path, p]));
    expect(byPath.get('onnx/model_quantized.onnx')?.sha256).toBe(
      minilm.files.find((f) => f.dtype === 'q8')?.hubSha256,
    );
    expect(byPath.get('onnx/model_quantized.onnx')?.bytes).toBeUndefined();
    expect(byPath.get('config.json')?.sha256).toBeUndefined();
    expect(byPath.get('tokenizer.json')?.label).toBe('Xenova/all-MiniLM-L6-v2/tokenizer.json');
    const bgePins = modelFilePins(bge, 'fp32', hubOf('Xenova/bge-small-en-v1.5', 'b'.repeat(40)));
    expect(bgePins.every((p) => p.sha256 === undefined)).toBe(true);
  });

  it('puts the files where transformers.js asks for them', () => {
    expect(modelBaseUrl(SITE, 'http://127.0.0.1:4000/memlens/assets/w.js')).toBe(
      'http://127.0.0.1:4000/memlens/models/tiny-bert/',
    );
    expect(modelBaseUrl(hubOf('Xenova/bge-small-en-v1.5', 'abc'), 'http://x/')).toBe(
      'https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/abc/',
    );
  });
});

describe('checkModelFile', () => {
  const weights = () => {
    const pin = modelFilePins(tiny, 'fp32', SITE).find((p) => p.path === 'onnx/model.onnx');
    if (!pin) throw new Error('no weights pin');
    return pin;
  };

  it('passes the pinned bytes, verified', async () => {
    const bytes = fixture('onnx/model.onnx');
    expect(await checkModelFile(weights(), bytes, 'application/octet-stream')).toEqual({
      path: 'onnx/model.onnx',
      sha256: sha(bytes),
      bytes: bytes.length,
      verified: true,
    });
  });

  it('names a tampered file with the expected and the actual sha256', async () => {
    const bytes = fixture('onnx/model.onnx');
    bytes[150_000] ^= 1;
    const error = await checkModelFile(weights(), bytes, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChecksumError);
    expect(String(error)).toContain(
      `models/tiny-bert/onnx/model.onnx: sha256 mismatch: expected ${weights().sha256}, got ${sha(bytes)}`,
    );
  });

  it('says a short copy is truncated, with both sizes', async () => {
    const bytes = fixture('onnx/model.onnx').subarray(0, 4096);
    await expect(checkModelFile(weights(), bytes, null)).rejects.toThrow(
      /models\/tiny-bert\/onnx\/model\.onnx: sha256 mismatch: .*\(truncated: expected 223221 bytes, got 4096\)/,
    );
  });

  it('says when the server answered with an HTML page instead', async () => {
    const html = new TextEncoder().encode('<!DOCTYPE html><html><body>404</body></html>');
    const error = await checkModelFile(weights(), html, 'text/html').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntegrityError);
    expect(String(error)).toContain(
      'models/tiny-bert/onnx/model.onnx: the server answered with an HTML page instead of this file',
    );
  });

  it('hashes an unpinned file and marks it unverified', async () => {
    const bytes = new TextEncoder().encode('{"model_type":"bert"}');
    const file = await checkModelFile({ path: 'config.json', label: 'x/config.json' }, bytes, null);
    expect(file).toEqual({ path: 'config.json', sha256: sha(bytes), bytes: 21, verified: false });
    expect(describeChecked([file])).toBe(
      `unverified: data/models.json pins no sha256 for config.json (sha256 ${sha(bytes).slice(0, 12)}…); used as downloaded`,
    );
    expect(describeChecked([{ ...file, verified: true }])).toBe(
      '1 file verified against data/models.json (size and sha256)',
    );
  });
});
