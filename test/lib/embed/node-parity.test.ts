import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getModelSpec, type ModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { createNodeEmbedder, type NodeEmbedder } from '../../../src/lib/embed/node-embedder.ts';
import { prepareTexts } from '../../../src/lib/embed/text-prep.ts';
import { maxAbsDiff, parityTexts, referenceVectors } from './reference-vectors.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const modelDir = join(repoRoot, 'test/fixtures/models/tiny-bert');
const TOLERANCE = 1e-4;

const texts = await parityTexts();

let embedder: NodeEmbedder;
let tokenizer: PreTrainedTokenizer;
const tempDirs: string[] = [];

beforeAll(async () => {
  embedder = await createNodeEmbedder({ model: parseModelRef('tiny-bert'), maxBatch: 8 });
  // Tokenizer only (env.localModelPath was set by the embedder): the forward pass is the reference's own.
  tokenizer = await AutoTokenizer.from_pretrained('tiny-bert');
});

afterAll(async () => {
  await embedder?.dispose();
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function norms(vectors: Float32Array, dim: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < vectors.length; i += dim) {
    out.push(Math.hypot(...vectors.subarray(i, i + dim)));
  }
  return out;
}

describe('node embedder vs reference BERT (tiny-bert)', () => {
  it('agrees within 1e-4 per component on 50 varied texts', async () => {
    expect(texts).toHaveLength(50);
    const spec = getModelSpec('tiny-bert');
    const { dim, vectors } = await embedder.embed(texts, { kind: 'document' });
    expect(dim).toBe(32);
    expect(vectors).toHaveLength(50 * 32);
    const diff = maxAbsDiff(vectors, dim, await referenceVectors(spec, texts));
    console.info(`tiny-bert parity: max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(TOLERANCE);
    for (const norm of norms(vectors, dim)) expect(norm).toBeCloseTo(1, 5);
  });

  it('truncates long texts to maxTokens', () => {
    const longest = Math.max(
      ...texts.map((text) => tokenizer(text, { return_tensor: false }).input_ids.length),
    );
    expect(longest).toBeGreaterThan(getModelSpec('tiny-bert').maxTokens);
  });

  it('is independent of batch composition', async () => {
    const alone = await embedder.embed([texts[46]], { kind: 'document' });
    const all = await embedder.embed(texts, { kind: 'document' });
    const diff = maxAbsDiff(all.vectors.subarray(46 * 32, 47 * 32), 32, [alone.vectors]);
    expect(diff).toBeLessThan(TOLERANCE);
  });

  it('applies a registry query prefix to queries only', async () => {
    const bge = getModelSpec('bge-small');
    const spec: ModelSpec = {
      ...getModelSpec('tiny-bert'),
      pooling: bge.pooling,
      queryPrefix: bge.queryPrefix,
    };
    const prefixed = await createNodeEmbedder({ model: { ...parseModelRef('tiny-bert'), spec } });
    try {
      const sample = texts.slice(0, 10);
      const queries = await prefixed.embed(sample, { kind: 'query' });
      const documents = await prefixed.embed(sample, { kind: 'document' });
      const withPrefix = await referenceVectors(spec, prepareTexts(spec, sample, 'query'));
      expect(maxAbsDiff(queries.vectors, 32, withPrefix)).toBeLessThan(TOLERANCE);
      const withoutPrefix = await referenceVectors(spec, sample);
      expect(maxAbsDiff(documents.vectors, 32, withoutPrefix)).toBeLessThan(TOLERANCE);
      expect(maxAbsDiff(queries.vectors, 32, withoutPrefix)).toBeGreaterThan(0.01);
    } finally {
      await prefixed.dispose();
    }
  });

  it('returns an empty result for no texts', async () => {
    const { dim, vectors } = await embedder.embed([], { kind: 'query' });
    expect(dim).toBe(32);
    expect(vectors).toHaveLength(0);
  });
});

describe('loading a model directory with a missing file', () => {
  it('names the missing file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tiny-bert-missing-'));
    tempDirs.push(root);
    await cp(modelDir, join(root, 'tiny-bert'), { recursive: true });
    await rm(join(root, 'tiny-bert', 'tokenizer.json'));
    await expect(
      createNodeEmbedder({ model: parseModelRef('tiny-bert'), modelRoot: root }),
    ).rejects.toThrow(/tokenizer\.json/);
  });
});
