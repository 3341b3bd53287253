import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { batchFeeds, encodeTexts, truncateKeepingLast } from '../../../src/lib/embed/forward.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const CLS = 101;
const SEP = 102;

async function tokenizerAt(root: string, id: string): Promise<PreTrainedTokenizer> {
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${root}/`;
  env.useFSCache = false;
  return AutoTokenizer.from_pretrained(id, { local_files_only: true });
}

describe('truncateKeepingLast', () => {
  it('keeps short sequences whole and cuts long ones before their closing token', () => {
    expect(truncateKeepingLast([CLS, 7, 8, SEP], 4)).toEqual([CLS, 7, 8, SEP]);
    expect(truncateKeepingLast([CLS, 7, 8, 9, 10, SEP], 4)).toEqual([CLS, 7, 8, SEP]);
    expect(() => truncateKeepingLast([CLS, SEP], 1)).toThrow(/at least 2/);
  });
});

describe('encodeTexts keeps [SEP] where transformers.js 4.3 would drop it', () => {
  const cases = [
    { model: 'minilm', root: join(repoRoot, 'public/models') },
    { model: 'tiny-bert', root: join(repoRoot, 'test/fixtures/models') },
  ];
  for (const { model, root } of cases) {
    describe(model, () => {
      const spec = getModelSpec(model);
      let tokenizer: PreTrainedTokenizer;
      beforeAll(async () => {
        tokenizer = await tokenizerAt(root, model);
      });

      it(`a text longer than maxTokens (${spec.maxTokens}) ends in [SEP] at exactly maxTokens`, () => {
        const long = 'remember that my cat is allergic to lilies '.repeat(80);
        // An empty text is exactly the special tokens: [CLS] [SEP] in this tokenizer's ids.
        const [cls, sep] = tokenizer('', { return_tensor: false }).input_ids;
        if (model === 'minilm') expect([cls, sep]).toEqual([CLS, SEP]);
        const [ids, short] = encodeTexts(tokenizer, spec, [long, 'hello there']);
        expect(ids).toHaveLength(spec.maxTokens);
        expect(ids[0]).toBe(cls);
        expect(ids[ids.length - 1]).toBe(sep);
        expect(short[0]).toBe(cls);
        expect(short[short.length - 1]).toBe(sep);
        // The bug this guards against: the library's own truncation loses the closing token.
        const library = tokenizer(long, {
          truncation: true,
          max_length: spec.maxTokens,
          return_tensor: false,
        }).input_ids;
        expect(library).toHaveLength(spec.maxTokens);
        expect(library[library.length - 1]).not.toBe(sep);
        expect(ids.slice(0, -1)).toEqual(library.slice(0, -1));
      });
    });
  }
});

describe('batchFeeds', () => {
  it('right-pads with the pad id and masks the padding', () => {
    const feeds = batchFeeds(
      [
        [CLS, 5, SEP],
        [CLS, SEP],
      ],
      0,
    );
    expect(feeds.input_ids.dims).toEqual([2, 3]);
    expect(Array.from(feeds.input_ids.data, Number)).toEqual([CLS, 5, SEP, CLS, SEP, 0]);
    expect(Array.from(feeds.attention_mask.data, Number)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(Array.from(feeds.token_type_ids.data, Number)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
