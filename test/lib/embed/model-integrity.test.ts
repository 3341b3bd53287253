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

  it('pins the Hub bytes where known (hubSha256), and every BGE-small file', () => {
    const { revision, repo } = minilm.hub ?? { repo: '', revision: '' };
    const pins = modelFilePins(minilm, 'q8', hubOf(repo, revision));
    const byPath = new Map(pins.map((p) => [p.path, p]));
    expect(byPath.get('onnx/model_quantized.onnx')?.sha256).toBe(
      minilm.files.find((f) => f.dtype === 'q8')?.hubSha256,
    );
    expect(byPath.get('onnx/model_quantized.onnx')?.bytes).toBeUndefined();
    expect(byPath.get('config.json')?.sha256).toBe(
      '7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7',
    );
    expect(byPath.get('tokenizer.json')?.label).toBe('Xenova/all-MiniLM-L6-v2/tokenizer.json');
    const bgePins = modelFilePins(bge, 'fp32', hubOf('Xenova/bge-small-en-v1.5', 'b'.repeat(40)));
    expect(Object.fromEntries(bgePins.map((p) => [p.path, p.sha256]))).toEqual({
      'config.json': 'fa73f90bf92c8cace1fbcb709626306f2bdbc9ea3e5b5f94b440df9b6aa56350',
      'special_tokens_map.json': 'b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3',
      'tokenizer.json': 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
      'tokenizer_config.json': '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3',
      'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
      'onnx/model.onnx': '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
    });
    const q8 = modelFilePins(bge, 'q8', hubOf('Xenova/bge-small-en-v1.5', 'b'.repeat(40)));
    expect(q8.find((p) => p.path === 'onnx/model_quantized.onnx')).toMatchObject({
      sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
      bytes: 34014426,
    });
  });

  it("accepts the site's copy of a MiniLM file with either pinned digest (made here, or the Hub's)", async () => {
    const site = { ...SITE, loadId: 'minilm' };
    const pin = modelFilePins(minilm, 'q8', site).find((p) => p.path === 'config.json');
    expect(pin?.sha256).toBe(minilm.files.find((f) => f.path === 'config.json')?.sha256);
    expect(pin?.hubSha256).toBe('7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7');
    if (!pin) throw new Error('no config.json pin');
    const bytes = new TextEncoder().encode('{"not":"either"}');
    await expect(checkModelFile(pin, bytes, 'application/json')).rejects.toThrow(
      `models/minilm/config.json: sha256 mismatch: expected ${pin.sha256}`,
    );
    const hubLike = { ...pin, hubSha256: sha(bytes) };
    expect(await checkModelFile(hubLike, bytes, 'application/json')).toMatchObject({
      sha256: sha(bytes),
      verified: true,
    });
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
