import { describe, expect, it } from 'vitest';
import { getModelSpec, modelRevision } from '../../../src/lib/embed/model-registry.ts';
import {
  browserDevice,
  formatModelRef,
  ModelRefError,
  parseModelRef,
  refOfSpec,
} from '../../../src/lib/embed/model-ref.ts';

describe('parseModelRef', () => {
  it('looks the model up once and fills what the text leaves out', () => {
    const ref = parseModelRef('bge-small');
    expect(ref).toEqual({
      id: 'bge-small',
      source: 'site',
      revision: modelRevision(getModelSpec('bge-small'), 'fp32'),
      dtype: 'fp32',
      backend: 'auto',
      spec: getModelSpec('bge-small'),
    });
    expect(ref.revision).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reads dtype, backend and source from the text, over the defaults', () => {
    const ref = parseModelRef('minilm:q8@wasm+hub', { dtype: 'fp32', backend: 'webgpu' });
    expect([ref.id, ref.dtype, ref.backend, ref.source]).toEqual(['minilm', 'q8', 'wasm', 'hub']);
    expect(ref.revision).toBe(modelRevision(getModelSpec('minilm'), 'q8'));
    const defaulted = parseModelRef('minilm', { dtype: 'q8', backend: 'node', source: 'hub' });
    expect([defaulted.dtype, defaulted.backend, defaulted.source]).toEqual(['q8', 'node', 'hub']);
  });

  it('formats what it parses, and parses what it formats', () => {
    for (const text of ['tiny-bert:fp32@auto', 'bge-small:q8@wasm+hub', 'minilm:fp32@node']) {
      expect(formatModelRef(parseModelRef(text))).toBe(text);
    }
    const ref = parseModelRef('minilm', { backend: 'webgpu' });
    expect(parseModelRef(formatModelRef(ref))).toEqual(ref);
  });

  it('names the input, the text and what is wrong with it', () => {
    expect(() => parseModelRef('gpt-9', {}, 'the URL parameter ret')).toThrow(
      'the URL parameter ret: Unknown model "gpt-9" (known: minilm, bge-small, tiny-bert)',
    );
    expect(() => parseModelRef('minilm:int3', {}, '--model')).toThrow(
      '--model: "minilm:int3": dtype must be one of fp32, fp16, q8, q4',
    );
    expect(() => parseModelRef('tiny-bert:q8', {}, '--model')).toThrow(
      '--model: tiny-bert has no q8 weights (has: fp32)',
    );
    expect(() => parseModelRef('minilm@cuda')).toThrow(
      'model: "minilm@cuda": backend must be one of auto, webgpu, wasm, node',
    );
    for (const bad of ['', ' ', '<script>', '../minilm', 'minilm?x=1', 'minilm+cdn']) {
      expect(() => parseModelRef(bad, {}, 'ret')).toThrow(ModelRefError);
    }
    expect(() => parseModelRef('<img src=x>', {}, 'ret')).toThrow(
      'ret: "<img src=x>" is not a model reference (id[:dtype][@backend][+hub])',
    );
  });

  it('refuses a default dtype the model lacks', () => {
    expect(() => parseModelRef('tiny-bert', { dtype: 'q8' }, 'runs')).toThrow(
      'runs: tiny-bert has no q8 weights (has: fp32)',
    );
  });
});

describe('refOfSpec', () => {
  it('gives the parser’s reference for an entry the caller already holds', () => {
    const spec = getModelSpec('minilm');
    expect(refOfSpec(spec, { dtype: 'q8', backend: 'wasm' })).toEqual(
      parseModelRef('minilm:q8@wasm'),
    );
    expect(() => refOfSpec(getModelSpec('tiny-bert'), { dtype: 'q4' })).toThrow(/no q4 weights/);
  });
});

describe('browserDevice', () => {
  it('passes a page device through and refuses a Node reference by name', () => {
    expect(browserDevice(parseModelRef('minilm@webgpu'))).toBe('webgpu');
    expect(() => browserDevice(parseModelRef('minilm@node'))).toThrow(
      'minilm:fp32@node runs in Node, not in a page',
    );
  });
});
