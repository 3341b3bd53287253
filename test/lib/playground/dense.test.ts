import { describe, expect, it } from 'vitest';
import type { EmbedOptions, Embedder, EmbeddingMatrix } from '../../../src/lib/embed/embedder.ts';
import {
  getModelSpec,
  type ModelDtype,
  type ModelSpec,
} from '../../../src/lib/embed/model-registry.ts';
import { DenseRanker } from '../../../src/lib/playground/dense.ts';
import { DenseRuns, type DenseResult } from '../../../src/lib/playground/dense-runs.ts';
import { playgroundDtype } from '../../../src/lib/playground/retrievers.ts';

const VOCAB = ['allergy', 'nut', 'macaron', 'almond', 'cat', 'visa'];

/** Bag of words over a tiny vocabulary: enough to check the plumbing, not a model. */
class FakeEmbedder implements Embedder {
  readonly spec: ModelSpec = { ...getModelSpec('tiny-bert'), dims: VOCAB.length };
  readonly backend = 'node' as const;
  calls: { n: number; kind: string }[] = [];
  private running = false;

  async embed(texts: readonly string[], opts: EmbedOptions): Promise<EmbeddingMatrix> {
    if (this.running) throw new Error('An embedding run is already in progress');
    this.running = true;
    this.calls.push({ n: texts.length, kind: opts.kind });
    await new Promise((r) => setTimeout(r, 1));
    const vectors = new Float32Array(texts.length * VOCAB.length);
    texts.forEach((t, i) =>
      VOCAB.forEach((w, j) => (vectors[i * VOCAB.length + j] = t.includes(w) ? 1 : 0)),
    );
    opts.onProgress?.({
      done: texts.length,
      total: texts.length,
      cached: 0,
      textsPerSecond: 0,
      etaSeconds: 0,
    });
    this.running = false;
    return { dim: VOCAB.length, count: texts.length, vectors };
  }

  async dispose(): Promise<void> {}
}

const BACKGROUND = ['my cat is asleep', 'a walk in the park', 'the almond harvest'];

describe('DenseRanker', () => {
  it('embeds the background once, queues runs, and ranks by cosine', async () => {
    const fake = new FakeEmbedder();
    const ranker = new DenseRanker(fake, BACKGROUND);
    const [a, b] = await Promise.all([
      ranker.rank(['nut allergy'], 'allergy and macaron'),
      ranker.rank(['almond macaron'], 'macaron'),
    ]);
    expect(fake.calls.filter((c) => c.n === 3)).toHaveLength(1);
    expect(fake.calls.filter((c) => c.kind === 'query')).toHaveLength(2);
    expect(a.memories[0].rank).toBe(1);
    expect(b.memories[0].rank).toBe(1);
    expect(a.corpusSize).toBe(4);
  });
});

describe('DenseRuns', () => {
  it('reports loading, then the latest result only', async () => {
    const seen: DenseResult[] = [];
    const runs = new DenseRuns(
      async () => new DenseRanker(new FakeEmbedder(), BACKGROUND),
      (_id, r) => seen.push(r),
    );
    runs.run('tiny-bert', ['cat'], 'visa');
    runs.run('tiny-bert', ['visa stamp'], 'visa');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen[0].status).toBe('loading');
    const done = seen.filter((r) => r.status === 'done');
    expect(done).toHaveLength(1);
    expect(done[0].ranking?.memories[0].rank).toBe(1);
    await runs.dispose();
  });

  it('reports a model that cannot load', async () => {
    let last: DenseResult | null = null;
    const runs = new DenseRuns(
      async () => {
        throw new Error('minilm is not served by this site');
      },
      (_id, r) => (last = r),
    );
    runs.run('minilm', ['x'], 'y');
    await new Promise((r) => setTimeout(r, 10));
    expect(last).toMatchObject({ status: 'error', detail: 'minilm is not served by this site' });
  });
});

describe('playgroundDtype', () => {
  it('prefers the smallest weights the site serves', () => {
    const spec = getModelSpec('minilm');
    const has = (dtypes: ModelDtype[]) => new Map([[spec.id, { spec, dtypes }]]);
    expect(playgroundDtype(has(['fp32', 'q8']), spec)).toBe('q8');
    expect(playgroundDtype(has(['fp32']), spec)).toBe('fp32');
    expect(playgroundDtype(has([]), spec)).toBeNull();
  });
});
