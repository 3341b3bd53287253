import { describe, expect, it } from 'vitest';
import type { EmbedKind, Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { UnitVectors, type FillProgress } from '../../../src/lib/embed/unit-vectors.ts';

function embedder(calls: { kind: EmbedKind; texts: string[] }[], storeHits = 0): Embedder {
  return {
    spec: getModelSpec('tiny-bert'),
    backend: 'node',
    async embed(texts, { kind, onProgress }) {
      calls.push({ kind, texts: [...texts] });
      onProgress?.({
        done: texts.length,
        total: texts.length,
        cached: Math.min(storeHits, texts.length),
        textsPerSecond: 0,
        etaSeconds: 0,
      });
      return {
        dim: 2,
        count: texts.length,
        vectors: Float32Array.from(texts.flatMap((t) => [t.length, kind === 'query' ? 1 : 0])),
      };
    },
    dispose: async () => undefined,
  };
}

describe('UnitVectors', () => {
  it('embeds only what it lacks, per kind, and keeps unit vectors', async () => {
    const calls: { kind: EmbedKind; texts: string[] }[] = [];
    const vectors = new UnitVectors();
    const progress: FillProgress[] = [];
    await vectors.fill(embedder(calls), [
      { kind: 'document', texts: ['abc', 'abc', 'de'] },
      { kind: 'query', texts: ['abc'] },
    ]);
    await vectors.fill(embedder(calls), [{ kind: 'document', texts: ['abc', 'fghi'] }], {
      onProgress: (p) => progress.push(p),
    });
    expect(calls).toEqual([
      { kind: 'document', texts: ['abc', 'de'] },
      { kind: 'query', texts: ['abc'] },
      { kind: 'document', texts: ['fghi'] },
    ]);
    expect(progress).toEqual([{ done: 1, total: 1, cached: 1 }]);
    expect(vectors.size).toBe(4);
    expect(Array.from(vectors.need('document', 'abc'))).toEqual([1, 0]);
    const q = vectors.need('query', 'abc');
    expect(Math.hypot(q[0], q[1])).toBeCloseTo(1, 6);
  });

  it("counts the embedder's vector-cache hits as cached, over every kind", async () => {
    const vectors = new UnitVectors();
    await vectors.fill(embedder([]), [{ kind: 'document', texts: ['held'] }]);
    const progress: FillProgress[] = [];
    await vectors.fill(
      embedder([], 1),
      [
        { kind: 'document', texts: ['held', 'x', 'y'] },
        { kind: 'query', texts: ['z'] },
      ],
      { onProgress: (p) => progress.push(p) },
    );
    expect(progress).toEqual([
      { done: 2, total: 3, cached: 2 },
      { done: 3, total: 3, cached: 3 },
    ]);
  });

  it('names the text it has no vector for', () => {
    expect(() => new UnitVectors().need('query', 'never embedded')).toThrow(
      'no query vector for "never embedded"',
    );
  });

  it('keeps nothing of a run that fails', async () => {
    const vectors = new UnitVectors();
    const failing: Embedder = {
      ...embedder([]),
      embed: () => Promise.reject(new Error('worker stopped')),
    };
    await expect(vectors.fill(failing, [{ kind: 'document', texts: ['x'] }])).rejects.toThrow(
      'worker stopped',
    );
    expect(vectors.size).toBe(0);
  });
});
