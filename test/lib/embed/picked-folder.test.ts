import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  pickFolder,
  pickedModelRef,
  splitRelative,
  type PickedFile,
} from '../../../src/lib/embed/picked-folder.ts';
import { pickedLoadId, pickedModel, pickedModels } from '../../../src/lib/embed/picked-files.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { repoRoot } from '../../../scripts/lib/site-build.ts';

const TINY = path.join(repoRoot, 'test/fixtures/models/tiny-bert');
const own = (f: string): PickedFile => ({
  path: f,
  blob: new Blob([new Uint8Array(readFileSync(path.join(TINY, f)))]),
});
const text = (p: string, value: unknown): PickedFile => ({
  path: p,
  blob: new Blob([JSON.stringify(value)]),
});
const FILES = [
  ...['config.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt', 'onnx/model.onnx'].map(
    own,
  ),
  text('modules.json', [
    { path: '', type: 'sentence_transformers.models.Transformer' },
    { path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
    { path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
  ]),
  text('1_Pooling/config.json', { word_embedding_dimension: 32, pooling_mode_mean_tokens: true }),
  text('sentence_bert_config.json', { max_seq_length: 128 }),
];

describe('a folder picked in the page', () => {
  it("splits a webkitRelativePath into the folder's name and the path inside it", () => {
    expect(splitRelative('my-tiny/onnx/model.onnx')).toEqual({
      folder: 'my-tiny',
      path: 'onnx/model.onnx',
    });
    expect(() => splitRelative('model.onnx')).toThrow(/not inside a picked folder/);
  });

  it('reads and digests it as the CLI does, then finds it by its reference', async () => {
    const entry = await pickFolder('my-tiny', FILES);
    expect(entry.id).toBe('onnx:my-tiny');
    expect(entry.model.ref.spec).toMatchObject({ pooling: 'mean', normalize: true, dims: 32 });
    expect(entry.model.ref.revision).toMatch(/^files:[0-9a-f]{64}$/);
    const weights = entry.model.files.find((f) => f.path === 'onnx/model.onnx');
    expect(weights?.sha256).toBe(
      await sha256Hex(new Uint8Array(readFileSync(path.join(TINY, 'onnx/model.onnx')))),
    );
    // vocab.txt is not read (tokenizer.json is), so the worker is not given it.
    expect(Object.keys(entry.files).sort()).toEqual(entry.model.files.map((f) => f.path).sort());
    expect(Object.keys(entry.files)).not.toContain('vocab.txt');
    expect(pickedModel('onnx:my-tiny')).toBe(entry);
    expect(pickedModel('onnx:other')).toBeUndefined();
    expect(pickedModels().filter((m) => m.id === entry.id)).toEqual([entry]);
    expect(pickedModelRef(entry, 'wasm')).toMatchObject({ backend: 'wasm', dtype: 'fp32' });
    expect(pickedLoadId(entry)).toMatch(/^picked-[0-9a-f]{24}$/);
  });

  it('refuses an odd folder name and a folder without modules.json, naming it', async () => {
    await expect(pickFolder('a b', FILES)).rejects.toThrow(/use a folder name of letters/);
    await expect(
      pickFolder(
        'bare',
        FILES.filter((f) => f.path !== 'modules.json'),
      ),
    ).rejects.toThrow(/^onnx:bare: modules\.json is missing/);
  });
});
