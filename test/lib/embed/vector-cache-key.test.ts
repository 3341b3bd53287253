import { describe, expect, it } from 'vitest';
import { getModelSpec, type ModelSpec } from '../../../src/lib/embed/model-registry.ts';
import {
  loadedKeyScope,
  modelRevision,
  poolingTag,
  vectorKey,
  vectorKeys,
  vectorKeyScope,
} from '../../../src/lib/embed/vector-cache-key.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';

const tiny = getModelSpec('tiny-bert');
const bge = getModelSpec('bge-small');

describe('vector cache keys', () => {
  it('names the revision: pinned weights by their sha256, hub weights by repo@commit, never main', () => {
    // BGE-small's weights are pinned by sha256 now (data/models.json, issue 20).
    expect(modelRevision(bge, 'fp32')).toBe(
      'sha256:828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
    );
    const weights = tiny.files.find((f) => f.path === 'onnx/model.onnx');
    expect(modelRevision(tiny, 'fp32')).toBe(`sha256:${weights?.sha256}`);
    const minilm = getModelSpec('minilm');
    const q8 = minilm.files.find((f) => f.dtype === 'q8');
    expect(modelRevision(minilm, 'q8')).toBe(`sha256:${q8?.sha256}`);
    expect(modelRevision(minilm, 'q8', 'hub')).toBe(
      'Xenova/all-MiniLM-L6-v2@751bff37182d3f1213fa05d7196b954e230abad9',
    );
    for (const spec of [bge, tiny, minilm]) {
      for (const dtype of spec.dtypes) expect(modelRevision(spec, dtype)).not.toMatch(/@main$/);
    }
  });

  it('keys a browser load on the sha256 of the weights it read: pinned bytes as before, others apart', () => {
    const pinned = tiny.files.find((f) => f.path === 'onnx/model.onnx')?.sha256 ?? '';
    const ref = parseModelRef('tiny-bert:fp32');
    expect(loadedKeyScope(ref, 'document', pinned)).toEqual(
      vectorKeyScope(tiny, 'fp32', 'document'),
    );
    const tampered = loadedKeyScope(ref, 'document', '0'.repeat(64));
    expect(tampered.revision).toBe(`sha256:${'0'.repeat(64)}`);
    expect(vectorKey(tampered, 'h')).not.toBe(
      vectorKey(vectorKeyScope(tiny, 'fp32', 'document'), 'h'),
    );
  });

  it('tags pooling with normalisation and truncation', () => {
    expect(poolingTag(tiny)).toBe('mean+l2@128');
    expect(poolingTag({ pooling: 'cls', normalize: false, maxTokens: 512 })).toBe('cls@512');
  });

  it('uses the query prefix for queries only', () => {
    expect(vectorKeyScope(bge, 'fp32', 'query').prefix).toBe(bge.queryPrefix);
    expect(vectorKeyScope(bge, 'fp32', 'document').prefix).toBe('');
  });

  it('gives a different key whenever any part differs', async () => {
    const hash = await sha256Hex('hello');
    const base = vectorKeyScope(bge, 'fp32', 'document');
    const variants = [
      base,
      { ...base, model: 'other' },
      { ...base, revision: 'Xenova/bge-small-en-v1.5@abc123' },
      vectorKeyScope(bge, 'q8', 'document'),
      { ...base, pooling: 'mean+l2@512' },
      vectorKeyScope(bge, 'fp32', 'query'),
    ];
    const keys = variants.map((scope) => vectorKey(scope, hash));
    expect(new Set(keys).size).toBe(variants.length);
    expect(vectorKey(base, await sha256Hex('hello!'))).not.toBe(keys[0]);
  });

  it('cannot be made to collide by separators inside the parts', () => {
    const scope = vectorKeyScope(tiny, 'fp32', 'document');
    const a = vectorKey({ ...scope, model: 'a|b', prefix: '' }, 'h');
    const b = vectorKey({ ...scope, model: 'a', prefix: 'b|' }, 'h');
    expect(a).not.toBe(b);
    expect(JSON.parse(a)).toEqual(['a|b', scope.revision, 'fp32', 'mean+l2@128', '', 'h']);
  });

  it('keys texts in order, equal texts equally', async () => {
    const spec: ModelSpec = tiny;
    const scope = vectorKeyScope(spec, 'fp32', 'document');
    const keys = await vectorKeys(scope, ['x', 'y', 'x']);
    expect(keys[0]).toBe(keys[2]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[1]).toBe(vectorKey(scope, await sha256Hex('y')));
  });
});
