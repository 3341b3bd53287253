// Whether a pack's vectors come from the model it is labelled with: a seeded sample of the texts
// it answers, embedded by that model (the site's own pack of it, or the model itself), compared
// row by row. Vectors that pass every check of vector-check.ts can still be another model's, or
// the labelled model's for other texts; only the model can tell.
import type { Embedder, EmbedKind } from '../embed/embedder.ts';

/** Texts compared: a few forward passes of the labelled model, whatever the pack's size. */
export const AGREEMENT_SAMPLE = 8;

/**
 * The least cosine a sampled text's two vectors may have. The same model and dtype agree to
 * float32 rounding across runtimes (max |Δ| 1.4e-7 to 1.9e-7 between onnxruntime-node and WASM,
 * docs/embeddings.md), a cosine above 1 − 1e-10; tiny-bert's vectors of other texts measured far
 * below in test/e2e/vector-checks.test.ts. 0.999 leaves room for WebGPU's fp16 arithmetic.
 */
export const AGREEMENT_MIN_COSINE = 0.999;

export interface PackAgreement {
  sampled: number;
  /** The least cosine between the pack's vector and the model's, over the sample. */
  minCosine: number;
  agrees: boolean;
}

/** `n` distinct texts of `texts`, the same for the same texts and seed (a seeded shuffle's head). */
export function sampleTexts(texts: readonly string[], n: number, seed = 0x5eed): string[] {
  const pool = [...new Set(texts)];
  let state = seed >>> 0;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const take = Math.min(n, pool.length);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, take);
}

function cosine(a: Float32Array, aStart: number, b: Float32Array, bStart: number, dim: number) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < dim; i++) {
    const x = a[aStart + i];
    const y = b[bStart + i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The pack's vectors for a seeded sample of `texts` against `model`'s own for the same texts. */
export async function packAgreement(
  pack: Embedder,
  model: Embedder,
  texts: readonly string[],
  options: { kind?: EmbedKind; signal?: AbortSignal } = {},
): Promise<PackAgreement> {
  const sample = sampleTexts(texts, AGREEMENT_SAMPLE);
  const opts = { kind: options.kind ?? 'document', signal: options.signal };
  const ours = await pack.embed(sample, opts);
  const theirs = await model.embed(sample, opts);
  if (ours.dim !== theirs.dim) return { sampled: sample.length, minCosine: 0, agrees: false };
  let minCosine = 1;
  for (let i = 0; i < sample.length; i++) {
    const c = cosine(ours.vectors, i * ours.dim, theirs.vectors, i * theirs.dim, ours.dim);
    minCosine = Math.min(minCosine, c);
  }
  return { sampled: sample.length, minCosine, agrees: minCosine >= AGREEMENT_MIN_COSINE };
}

/** What a comparison says of a pack whose vectors are not its label's; '' where they are. */
export function agreementNote(a: PackAgreement, model: string): string {
  if (a.agrees) return '';
  return `Its vectors do not come from ${model}, the model it is labelled with: for ${a.sampled} sampled texts, ${model} here gives vectors whose cosine with the pack's falls to ${a.minCosine.toFixed(3)} (the same model agrees above ${AGREEMENT_MIN_COSINE}). Its numbers are not ${model}'s.`;
}
