// Issue 37.6: a brought model's damaged or mismatched files are named with the field and the fix
// before ONNX Runtime runs (and ONNX Runtime's own words are mapped when it does).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  jsonErrorOffset,
  onnxFailureMessage,
  parseJsonFile,
  tokenizerProblem,
  tokenizerSize,
} from '../../../src/lib/embed/brought-checks.ts';
import { pickFolder, type PickedFile } from '../../../src/lib/embed/picked-folder.ts';
import { repoRoot } from '../../../scripts/lib/site-build.ts';

const TINY = path.join(repoRoot, 'test/fixtures/models/tiny-bert');
const bytes = (f: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(readFileSync(path.join(TINY, f)));
const file = (p: string, data: Uint8Array<ArrayBuffer> | string): PickedFile => ({
  path: p,
  blob: new Blob([data]),
});

function folder(change: Record<string, Uint8Array<ArrayBuffer> | string> = {}): PickedFile[] {
  const own: Record<string, Uint8Array<ArrayBuffer> | string> = {
    'config.json': bytes('config.json'),
    'tokenizer.json': bytes('tokenizer.json'),
    'tokenizer_config.json': bytes('tokenizer_config.json'),
    'onnx/model.onnx': bytes('onnx/model.onnx'),
    'modules.json': JSON.stringify([
      { path: '', type: 'sentence_transformers.models.Transformer' },
      { path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
    ]),
    '1_Pooling/config.json': JSON.stringify({
      word_embedding_dimension: 32,
      pooling_mode_mean_tokens: true,
    }),
    'sentence_bert_config.json': JSON.stringify({ max_seq_length: 128 }),
    ...change,
  };
  return Object.entries(own).map(([p, d]) => file(p, d));
}

describe('a brought model’s files, checked before ONNX Runtime', () => {
  it('finds where JSON breaks, and names the file, the line and column', () => {
    expect(jsonErrorOffset('{"a": 1}')).toBe(-1);
    expect(jsonErrorOffset('{"a": }')).toBe(6);
    expect(jsonErrorOffset('{"a": [1, 2,]}')).toBe(12);
    expect(jsonErrorOffset('{"a": "x\n"}')).toBe(8);
    expect(() =>
      parseJsonFile('{\n  "model": {\n    "vocab": oops\n  }\n}', 'tokenizer.json'),
    ).toThrow(
      `tokenizer.json: not JSON at line 3, column 14 ("oops\\n  }\\n}"); copy the file again from the model's export`,
    );
    expect(() => parseJsonFile('{"model": {"vocab": {"a"', 'tokenizer.json')).toThrow(
      "tokenizer.json: not JSON: it ends early, after 24 characters (cut short?); copy the file again from the model's export",
    );
  });

  it('counts the tokens a tokenizer can give and compares them with the embedding table', () => {
    const tiny: unknown = JSON.parse(readFileSync(path.join(TINY, 'tokenizer.json'), 'utf8'));
    if (typeof tiny !== 'object' || tiny === null) throw new Error('tokenizer.json');
    expect(tokenizerSize(tiny as Record<string, unknown>)).toBe(621);
    expect(tokenizerProblem(tiny as Record<string, unknown>, { vocab_size: 621 })).toBeNull();
    expect(
      tokenizerSize({
        model: {
          vocab: [
            ['a', 0],
            ['b', 0],
          ],
        },
      }),
    ).toBe(2);
    expect(tokenizerProblem({ model: { vocab: { a: 0, b: 30521 } } }, { vocab_size: 621 })).toBe(
      "tokenizer.json has 30522 tokens but the model's embedding table has 621 rows (config.json vocab_size): the tokenizer is another model's; bring the tokenizer.json exported with these weights",
    );
  });

  it("maps ONNX Runtime's words for a token past the table and for cut-short weights", () => {
    const bounds = new Error(
      "Non-zero status code returned while running Gather node. Name:'/embeddings/word_embeddings/Gather' Status Message: indices element out of data bounds, idx=1045 must be within the inclusive range [-621,620]",
    );
    expect(onnxFailureMessage(bounds, 'onnx:my-tiny', 'onnx/model.onnx')).toBe(
      "onnx:my-tiny: tokenizer.json gave token id 1045 but the model's embedding table has 621 rows: the tokenizer is another model's; bring the tokenizer.json exported with these weights",
    );
    const cut = new Error(
      "Can't create a session. Failed to load model because protobuf parsing failed.",
    );
    expect(onnxFailureMessage(cut, 'onnx:my-tiny', 'onnx/model.onnx')).toMatch(
      /^onnx:my-tiny: onnx\/model\.onnx is not a whole ONNX model \(cut short or damaged: .*protobuf parsing failed.*\); copy or download it again$/,
    );
    expect(onnxFailureMessage(new Error('other'), 'w', 'm')).toBeNull();
  });

  it('refuses a picked folder with a broken tokenizer, another model’s, or too long a max length', async () => {
    await expect(pickFolder('my-tiny', folder())).resolves.toMatchObject({ id: 'onnx:my-tiny' });
    const broken = new TextDecoder().decode(bytes('tokenizer.json')).slice(0, 5000);
    await expect(pickFolder('my-tiny', folder({ 'tokenizer.json': broken }))).rejects.toThrow(
      /^onnx:my-tiny: tokenizer\.json: not JSON: it ends early, after 5000 characters/,
    );
    const minilm = readFileSync(path.join(repoRoot, 'public/models/minilm/tokenizer.json'));
    await expect(
      pickFolder('my-tiny', folder({ 'tokenizer.json': new Uint8Array(minilm) })),
    ).rejects.toThrow(
      "my-tiny: tokenizer.json has 30522 tokens but the model's embedding table has 621 rows (config.json vocab_size)",
    );
    await expect(
      pickFolder('my-tiny', folder({ 'sentence_bert_config.json': '{"max_seq_length": 1024}' })),
    ).rejects.toThrow(
      "my-tiny: sentence_bert_config.json max_seq_length 1024 is over the model's position limit of 512 (config.json max_position_embeddings): set it to 512 or less",
    );
  });
});
