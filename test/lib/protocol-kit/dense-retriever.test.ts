import { describe, expect, it } from 'vitest';
import type { EmbedKind, Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { UnitVectors } from '../../../src/lib/embed/unit-vectors.ts';
import { denseRetriever } from '../../../src/lib/protocol-kit/dense-retriever.ts';
import { evaluateProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

/** 2-d vectors from a lookup table; records every call. */
function fakeEmbedder(table: Record<string, [number, number]>) {
  const calls: { kind: EmbedKind; texts: string[] }[] = [];
  const embedder: Embedder = {
    spec: getModelSpec('bge-small'),
    backend: 'node',
    async embed(texts, { kind }) {
      calls.push({ kind, texts: [...texts] });
      return {
        dim: 2,
        count: texts.length,
        vectors: Float32Array.from(texts.flatMap((t) => table[t])),
      };
    },
    dispose: async () => undefined,
  };
  return { embedder, calls };
}

const protocol: Protocol = {
  benchmark: 'inmind',
  notes: [],
  corpora: corpusMap([
    { id: 'a', docs: ['east', 'north'], docIds: ['e', 'n'] },
    { id: 'b', docs: ['east', 'west'], docIds: ['e', 'w'] },
  ]),
  queries: [
    { id: 'q1', series: 's', group: 'g', text: 'up', corpusId: 'a', goldIds: ['n'] },
    { id: 'q2', series: 's', group: 'g', text: 'up', corpusId: 'b', goldIds: ['w'] },
  ],
  defaultK: 1,
};

const table: Record<string, [number, number]> = {
  east: [2, 0],
  north: [0, 3],
  west: [-1, 0],
  up: [0, 1],
};

describe('dense retriever', () => {
  it('embeds each distinct text once and scores by cosine', async () => {
    const { embedder, calls } = fakeEmbedder(table);
    const evaluation = await evaluateProtocol(
      protocol,
      denseRetriever(embedder, { queryPrefix: true }),
    );
    expect(calls).toEqual([
      { kind: 'document', texts: ['east', 'north', 'west'] },
      { kind: 'query', texts: ['up'] },
    ]);
    const [q1, q2] = evaluation.outcomes;
    expect(q1.targets).toEqual([{ index: 1, score: 1, rank: 1 }]);
    expect(q2.targets).toEqual([{ index: 1, score: 0, rank: 2 }]);
  });

  it('reuses shared unit vectors and embeds queries as documents without the prefix', async () => {
    const vectors = new UnitVectors();
    await evaluateProtocol(
      protocol,
      denseRetriever(fakeEmbedder(table).embedder, { queryPrefix: true, vectors }),
    );
    const { embedder, calls } = fakeEmbedder(table);
    await evaluateProtocol(protocol, denseRetriever(embedder, { queryPrefix: false, vectors }));
    // Documents were already held; the query is new as a `document`-kind text.
    expect(calls).toEqual([{ kind: 'document', texts: ['up'] }]);
    expect(vectors.size).toBe(5);
  });
});
