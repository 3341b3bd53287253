// tiny-bert's export laid out as a sentence-transformers model folder (mean pooling, normalised;
// 32 dims, 128 tokens), as a reader picks it or a Hub repo serves it.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/site-build.ts';

const TINY = path.join(repoRoot, 'test/fixtures/models/tiny-bert');

/** The transformers.js files, copied from the tiny-bert fixture. */
export const MODEL_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
];

/** modules.json and the pooling config; `sentence_bert_config.json` too with `maxSeqLength`. */
export function sentenceTransformersFiles(opts: { maxSeqLength?: boolean } = {}) {
  const files: Record<string, string> = {
    'modules.json': JSON.stringify([
      { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
      { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
      { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
    ]),
    '1_Pooling/config.json': JSON.stringify({
      word_embedding_dimension: 32,
      pooling_mode_cls_token: false,
      pooling_mode_mean_tokens: true,
    }),
  };
  if (opts.maxSeqLength) {
    files['sentence_bert_config.json'] = JSON.stringify({
      max_seq_length: 128,
      do_lower_case: false,
    });
  }
  return files;
}

/** Writes the model files into `dir`, and the sentence-transformers files `st` names. */
export async function writeTinyModel(dir: string, st: Record<string, string> = {}): Promise<void> {
  const into = async (f: string) => {
    await mkdir(path.dirname(path.join(dir, f)), { recursive: true });
    return path.join(dir, f);
  };
  for (const f of MODEL_FILES) await copyFile(path.join(TINY, f), await into(f));
  for (const [f, text] of Object.entries(st)) await writeFile(await into(f), text);
}
