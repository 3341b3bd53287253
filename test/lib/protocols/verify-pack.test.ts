import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/lib/embed/embedder.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { inSample, verifyingEmbedder } from '../../../src/lib/protocols/verify-pack.ts';
import { sitePackVectors } from '../../../src/lib/vectors/site-packs.ts';
import { sitePackFixture, unitRows } from '../vectors/site-pack-fixture.ts';

const spec = getModelSpec('tiny-bert');
const texts = Array.from({ length: 40 }, (_, i) => `memory ${i}`);
const VECTORS = unitRows(texts.length, spec.dims, Math.sin);

/** This browser's model, stood in for: the pack's rows, `shift` added to the first component. */
function here(shift: number, seen: string[]): Embedder {
  return {
    spec,
    backend: 'wasm',
    async embed(asked) {
      seen.push(...asked);
      const vectors = new Float32Array(asked.length * spec.dims);
      asked.forEach((t, i) => {
        const at = texts.indexOf(t) * spec.dims;
        vectors.set(VECTORS.subarray(at, at + spec.dims), i * spec.dims);
        vectors[i * spec.dims] += shift;
      });
      return { dim: spec.dims, count: asked.length, vectors };
    },
    dispose: async () => undefined,
  };
}

describe('Verify here', () => {
  it('draws the same seeded sample every time, of about the fraction asked', async () => {
    const picks = async () => Promise.all(texts.map((t) => inSample(t, 0.25)));
    const first = await picks();
    expect(await picks()).toEqual(first);
    expect(first.filter(Boolean).length).toBeGreaterThan(2);
    expect(first.filter(Boolean).length).toBeLessThan(25);
    expect(await inSample('anything', 1)).toBe(true);
  });

  it("answers with the pack's rows, re-embeds only the sample here and reports its deviation", async () => {
    const { bytes, entry } = await sitePackFixture(spec, texts, VECTORS);
    const pack = await sitePackVectors(entry, bytes, spec);
    const seen: string[] = [];
    const check = { max: 0, compared: 0 };
    const embedder = verifyingEmbedder(pack, here(0.001, seen), check, 0.25);
    const m = await embedder.embed(texts, { kind: 'document' });
    expect(Array.from(m.vectors)).toEqual(Array.from(VECTORS));
    const sample = texts.filter((_, i) => i >= 0 && seen.includes(texts[i]));
    expect(seen).toEqual(sample);
    expect(seen.length).toBeLessThan(texts.length);
    expect(check.compared).toBe(seen.length);
    expect(check.max).toBeCloseTo(0.001, 6);
  });
});
