// Reference embeddings for the tiny-bert parity checks: the independent float64 forward pass
// (test/support/reference-bert.ts) fed by transformers.js's tokenizer, one unpadded text at a time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer, env } from '@huggingface/transformers';
import type { ModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { loadReferenceBert, referenceEmbed } from '../../support/reference-bert.ts';
import { truncateKeepingLast } from '../../../src/lib/embed/forward.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = join(repoRoot, 'test/fixtures');

export async function parityTexts(): Promise<string[]> {
  const json = JSON.parse(await readFile(join(fixtures, 'texts/parity-50.json'), 'utf8')) as {
    texts: string[];
  };
  return json.texts;
}

export async function referenceVectors(spec: ModelSpec, texts: string[]): Promise<Float32Array[]> {
  const modelDir = join(fixtures, 'models/tiny-bert');
  const config = JSON.parse(await readFile(join(modelDir, 'config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const reference = loadReferenceBert(await readFile(join(modelDir, 'onnx/model.onnx')), config);
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${join(fixtures, 'models')}/`;
  env.useFSCache = false;
  const tokenizer = await AutoTokenizer.from_pretrained('tiny-bert', { local_files_only: true });
  return texts.map((text) => {
    const encoded = tokenizer(text, { return_tensor: false });
    const ids = truncateKeepingLast(encoded.input_ids, spec.maxTokens);
    return referenceEmbed(reference, { inputIds: [ids], tokenTypeIds: [ids.map(() => 0)] }, spec);
  });
}

/** Largest |a − b| over every component of every row. */
export function maxAbsDiff(
  vectors: ArrayLike<number>,
  dim: number,
  expected: readonly ArrayLike<number>[],
): number {
  let worst = 0;
  expected.forEach((row, i) => {
    for (let d = 0; d < dim; d++) {
      worst = Math.max(worst, Math.abs(vectors[i * dim + d] - row[d]));
    }
  });
  if (vectors.length !== expected.length * dim) return Infinity;
  return worst;
}

export function rows(vectors: ArrayLike<number>, dim: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let i = 0; i < vectors.length; i += dim) {
    out.push(Float32Array.from({ length: dim }, (_, d) => vectors[i + d]));
  }
  return out;
}
