import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import {
  AGREEMENT_MIN_COSINE,
  agreementNote,
  packAgreement,
  sampleTexts,
} from '../../../src/lib/vectors/pack-agreement.ts';

const spec = getModelSpec('tiny-bert');
const TEXTS = Array.from({ length: 40 }, (_, i) => `text ${i}`);

/** Each text's vector: a unit vector pointing at `place(text)`. */
function placed(place: (t: string) => number): Embedder {
  return {
    spec,
    backend: 'node',
    async embed(texts) {
      const vectors = new Float32Array(texts.length * spec.dims);
      texts.forEach((t, i) => (vectors[i * spec.dims + (place(t) % spec.dims)] = 1));
      return { dim: spec.dims, count: texts.length, vectors };
    },
    dispose: async () => undefined,
  };
}

const index = (t: string) => Number(t.split(' ')[1]);

describe('pack agreement', () => {
  it('samples the same distinct texts for the same input, and no more than there are', () => {
    const a = sampleTexts(TEXTS, 8);
    expect(a).toHaveLength(8);
    expect(new Set(a).size).toBe(8);
    expect(sampleTexts(TEXTS, 8)).toEqual(a);
    expect(sampleTexts(TEXTS, 8, 1)).not.toEqual(a);
    expect(sampleTexts(['x', 'x', 'y'], 8).sort()).toEqual(['x', 'y']);
  });

  it("agrees where the pack holds the model's vectors, and says nothing", async () => {
    const a = await packAgreement(placed(index), placed(index), TEXTS);
    expect(a).toEqual({ sampled: 8, minCosine: 1, agrees: true });
    expect(agreementNote(a, 'tiny-bert fp32')).toBe('');
  });

  it("flags vectors that are the model's for other texts, and says so", async () => {
    const shifted = placed((t) => index(t) + 1);
    const a = await packAgreement(shifted, placed(index), TEXTS);
    expect(a.agrees).toBe(false);
    expect(a.minCosine).toBeLessThan(AGREEMENT_MIN_COSINE);
    expect(agreementNote(a, 'tiny-bert fp32')).toMatch(
      /^Its vectors do not come from tiny-bert fp32, the model it is labelled with: for 8 sampled texts/,
    );
  });
});
