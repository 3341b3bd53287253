import { describe, expect, it } from 'vitest';
import {
  broughtBase,
  formatBroughtRef,
  loadBroughtModel,
  parseBroughtRef,
  sentenceTransformersConfig,
  type ModelFolder,
} from '../../../src/lib/embed/brought-model.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { refKeyScope } from '../../../src/lib/embed/vector-cache-key.ts';

const COMMIT = '751bff37182d3f1213fa05d7196b954e230abad9';

// all-MiniLM-L6-v2's sentence-transformers files, as its PyPI wheel holds them.
const MINILM_ST: Record<string, string> = {
  'modules.json': JSON.stringify([
    { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
    { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
    { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
  ]),
  '1_Pooling/config.json': JSON.stringify({
    word_embedding_dimension: 384,
    pooling_mode_cls_token: false,
    pooling_mode_mean_tokens: true,
    pooling_mode_max_tokens: false,
    pooling_mode_mean_sqrt_len_tokens: false,
  }),
  'config_sentence_transformers.json': JSON.stringify({
    __version__: { sentence_transformers: '2.0.0' },
  }),
  'sentence_bert_config.json': JSON.stringify({ max_seq_length: 256, do_lower_case: false }),
  'config.json': JSON.stringify({ hidden_size: 384, max_position_embeddings: 512 }),
};

const reader = (files: Record<string, string>) => (p: string) => files[p] ?? null;

function folder(files: Record<string, string | Uint8Array>): ModelFolder {
  const bytes = (v: string | Uint8Array) =>
    typeof v === 'string' ? new TextEncoder().encode(v) : v;
  return {
    where: '/models/mine',
    has: async (p) => p in files,
    read: async (p) => (p in files ? bytes(files[p]) : null),
  };
}

const EXPORT = {
  ...MINILM_ST,
  'tokenizer.json': '{}',
  'tokenizer_config.json': '{}',
  'onnx/model.onnx': new Uint8Array([1, 2, 3]),
  'onnx/model_quantized.onnx': new Uint8Array([4, 5]),
};

const identity = (dtype: 'fp32' | 'q8' | null = null) => ({
  text: 'onnx:/models/mine',
  id: 'onnx:/models/mine',
  label: 'mine (ONNX folder)',
  folder: '/models/mine',
  dtype,
});

describe('parseBroughtRef', () => {
  it('reads the three forms and writes them back', () => {
    expect(parseBroughtRef(`hub:Xenova/all-MiniLM-L6-v2@${COMMIT}`)).toEqual({
      kind: 'hub',
      repo: 'Xenova/all-MiniLM-L6-v2',
      revision: COMMIT,
      dtype: null,
    });
    expect(parseBroughtRef('onnx:./my model:q8')).toEqual({
      kind: 'onnx',
      path: './my model',
      dtype: 'q8',
    });
    expect(parseBroughtRef(' pack:out/inmind.parquet ')).toEqual({
      kind: 'pack',
      path: 'out/inmind.parquet',
    });
    for (const text of [`hub:a/b@${COMMIT}:q8`, 'onnx:/x/y', 'pack:p.parquet']) {
      const ref = parseBroughtRef(text);
      expect(ref && formatBroughtRef(ref)).toBe(text);
    }
    const q8 = parseBroughtRef(`hub:a/b@${COMMIT}:q8`);
    expect(q8 && broughtBase(q8)).toBe(`hub:a/b@${COMMIT}`);
  });

  it('leaves registry ids and bm25 alone', () => {
    for (const text of ['bm25', 'minilm', 'minilm:q8']) expect(parseBroughtRef(text)).toBeNull();
  });

  it('refuses a branch, a short hash and a bad repository, naming the reference', () => {
    expect(() => parseBroughtRef('hub:Xenova/all-MiniLM-L6-v2@main')).toThrow(
      /"main" is a branch or tag, not a commit: give the full 40-hex commit/,
    );
    expect(() => parseBroughtRef('hub:Xenova/all-MiniLM-L6-v2@751bff3')).toThrow(
      /"751bff3" is a short hash/,
    );
    expect(() => parseBroughtRef(`hub:a/b@${COMMIT.toUpperCase()}`)).toThrow(/lower case/);
    expect(() => parseBroughtRef('hub:Xenova/all-MiniLM-L6-v2')).toThrow(/OWNER\/NAME@COMMIT/);
    expect(() => parseBroughtRef(`hub:../etc@${COMMIT}`)).toThrow(/not a Hub repository/);
    expect(() => parseBroughtRef(`hub:a/b/c@${COMMIT}`)).toThrow(/not a Hub repository/);
    expect(() => parseBroughtRef('onnx:')).toThrow(/the path is empty/);
    expect(() => parseBroughtRef('pack:a\nb')).toThrow(/control characters/);
  });
});

describe('sentenceTransformersConfig', () => {
  it("reads MiniLM's pooling, normalisation, length and (empty) prompts from its files", () => {
    const c = sentenceTransformersConfig(reader(MINILM_ST));
    expect(c).toMatchObject({
      pooling: 'mean',
      normalize: true,
      maxTokens: 256,
      queryPrefix: '',
      documentPrefix: '',
      dims: 384,
    });
    expect(c.sources.join('\n')).toMatch(/pooling mean \(1_Pooling\/config\.json\)/);
    expect(c.sources.join('\n')).toMatch(/sentence_bert_config\.json max_seq_length/);
  });

  it('takes the prefixes from the prompts, CLS pooling, and no Normalize module', () => {
    const c = sentenceTransformersConfig(
      reader({
        ...MINILM_ST,
        'modules.json': JSON.stringify([
          { path: '', type: 'sentence_transformers.models.Transformer' },
          { path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
        ]),
        '1_Pooling/config.json': JSON.stringify({
          word_embedding_dimension: 384,
          pooling_mode_cls_token: true,
          pooling_mode_mean_tokens: false,
        }),
        'config_sentence_transformers.json': JSON.stringify({
          prompts: { query: 'query: ', passage: 'passage: ' },
          default_prompt_name: null,
        }),
      }),
    );
    expect(c).toMatchObject({
      pooling: 'cls',
      normalize: false,
      queryPrefix: 'query: ',
      documentPrefix: 'passage: ',
    });
  });

  it('falls back to max_position_embeddings and says so', () => {
    const files = { ...MINILM_ST };
    delete files['sentence_bert_config.json'];
    const c = sentenceTransformersConfig(reader(files));
    expect(c.maxTokens).toBe(512);
    expect(c.sources.join('\n')).toMatch(/no sentence_bert_config\.json/);
  });

  it('refuses what it cannot run, naming the file', () => {
    const without = { ...MINILM_ST };
    delete without['modules.json'];
    expect(() => sentenceTransformersConfig(reader(without))).toThrow(
      /modules\.json is missing: .* it does not guess them/,
    );
    const dense = JSON.parse(MINILM_ST['modules.json']);
    dense.push({ path: '3_Dense', type: 'sentence_transformers.models.Dense' });
    expect(() =>
      sentenceTransformersConfig(reader({ ...MINILM_ST, 'modules.json': JSON.stringify(dense) })),
    ).toThrow(/Transformer → Pooling → Normalize → Dense/);
    const twoModes = { pooling_mode_cls_token: true, pooling_mode_mean_tokens: true };
    expect(() =>
      sentenceTransformersConfig(
        reader({ ...MINILM_ST, '1_Pooling/config.json': JSON.stringify(twoModes) }),
      ),
    ).toThrow(/1_Pooling\/config\.json: pooling_mode_cls_token \+ pooling_mode_mean_tokens on/);
    expect(() =>
      sentenceTransformersConfig(
        reader({ ...MINILM_ST, '1_Pooling/config.json': '{"pooling_mode_max_tokens": true}' }),
      ),
    ).toThrow(/pooling_mode_max_tokens on; MemLens pools by/);
    expect(() =>
      sentenceTransformersConfig(reader({ ...MINILM_ST, 'sentence_bert_config.json': '{' })),
    ).toThrow(/sentence_bert_config\.json: not JSON/);
    const escape = [
      { path: '', type: 'x.Transformer' },
      { path: '../up', type: 'x.Pooling' },
    ];
    expect(() =>
      sentenceTransformersConfig(reader({ ...MINILM_ST, 'modules.json': JSON.stringify(escape) })),
    ).toThrow(/leaves the model folder/);
  });
});

describe('loadBroughtModel', () => {
  it('records every file it read with its sha256 and keys the vectors on them', async () => {
    const model = await loadBroughtModel(identity(), folder(EXPORT));
    expect(model.ref.dtype).toBe('fp32');
    expect(model.files.map((f) => f.path)).toEqual([
      '1_Pooling/config.json',
      'config.json',
      'config_sentence_transformers.json',
      'modules.json',
      'onnx/model.onnx',
      'sentence_bert_config.json',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    const weights = model.files.find((f) => f.path === 'onnx/model.onnx');
    expect(weights).toEqual({
      path: 'onnx/model.onnx',
      sha256: await sha256Hex(new Uint8Array([1, 2, 3])),
      bytes: 3,
    });
    expect(model.ref.revision).toMatch(/^files:[0-9a-f]{64}$/);
    expect(model.ref.spec).toMatchObject({
      id: 'onnx:/models/mine',
      source: { kind: 'local', path: '/models/mine' },
      pooling: 'mean',
      normalize: true,
      maxTokens: 256,
      dtypes: ['fp32'],
    });
    const scope = refKeyScope(model.ref, 'document');
    expect(scope).toMatchObject({ model: 'onnx:/models/mine', revision: model.ref.revision });
    // One byte of a config changes the key: its vectors are never mistaken for the others'.
    const changed = await loadBroughtModel(
      identity(),
      folder({ ...EXPORT, 'tokenizer_config.json': '{ }' }),
    );
    expect(changed.ref.revision).not.toBe(model.ref.revision);
  });

  it('loads the dtype named, and names what is missing', async () => {
    const q8 = await loadBroughtModel(identity('q8'), folder(EXPORT));
    expect(q8.files.some((f) => f.path === 'onnx/model_quantized.onnx')).toBe(true);
    const onlyFp32 = { ...EXPORT } as Record<string, string | Uint8Array>;
    delete onlyFp32['onnx/model_quantized.onnx'];
    await expect(loadBroughtModel(identity('q8'), folder(onlyFp32))).rejects.toThrow(
      /\/models\/mine: no q8 weights \(onnx\/model_quantized\.onnx\); has fp32/,
    );
    const noTokenizer = { ...EXPORT } as Record<string, string | Uint8Array>;
    delete noTokenizer['tokenizer.json'];
    await expect(loadBroughtModel(identity(), folder(noTokenizer))).rejects.toThrow(
      /\/models\/mine: tokenizer\.json missing/,
    );
    const noPooling = { ...EXPORT } as Record<string, string | Uint8Array>;
    delete noPooling['1_Pooling/config.json'];
    await expect(loadBroughtModel(identity(), folder(noPooling))).rejects.toThrow(
      /\/models\/mine: 1_Pooling\/config\.json is missing/,
    );
  });
});
