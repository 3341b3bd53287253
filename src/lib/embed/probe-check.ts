// A backend proves itself before its numbers are shown: the probe texts' vectors must each agree
// with the reference vectors (data/probes.json) to the set's threshold. A GPU can return finite and
// wrong vectors (transformers.js #1728: q8 on WebGPU at cosine ≈ 0 to WASM), so finite is not enough.

export interface ProbeVerdict {
  texts: number;
  /** The lowest per-text cosine against the reference; -1 when a vector is not finite. */
  worstCosine: number;
  threshold: number;
  /** What made the reference vectors, e.g. "sentence-transformers 6.2.0". */
  reference: string;
}

export const probePassed = (v: ProbeVerdict): boolean => v.worstCosine >= v.threshold;

function rowCosine(a: Float32Array, b: Float32Array, from: number, dim: number): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = from; i < from + dim; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  const cos = dot / Math.sqrt(na * nb);
  return Number.isFinite(cos) ? cos : -1;
}

/** The lowest cosine between matching rows of two `[n, dim]` matrices. */
export function worstCosine(got: Float32Array, reference: Float32Array, dim: number): number {
  if (got.length !== reference.length || got.length % dim !== 0 || got.length === 0) {
    throw new Error(`probe: ${got.length} values against a reference of ${reference.length}`);
  }
  let worst = 1;
  for (let from = 0; from < got.length; from += dim) {
    worst = Math.min(worst, rowCosine(got, reference, from, dim));
  }
  return worst;
}

/** 0.99999 and above as 1 − ε, so the digits that matter show. */
export function formatCosine(c: number): string {
  if (c < 0.99999) return c.toFixed(5);
  const gap = 1 - c;
  return gap <= 0 ? '1' : `1 − ${gap.toExponential(1)}`;
}

/** What the result line, the CSV and the export say of the check that passed. */
export function probeSummary(v: ProbeVerdict): string {
  return `probe: ${v.texts} texts, worst cosine ${formatCosine(v.worstCosine)} ≥ ${v.threshold} vs ${v.reference}`;
}

/** A backend whose probe vectors disagree with the reference: not to be used this session. */
export class ProbeRefused extends Error {
  constructor(readonly verdict: ProbeVerdict) {
    super(probeRefusal(verdict));
    this.name = 'ProbeRefused';
  }
}

export function probeRefusal(v: ProbeVerdict): string {
  return `its vectors disagree with the reference: worst cosine ${formatCosine(v.worstCosine)} < ${v.threshold} over ${v.texts} probe texts (vs ${v.reference})`;
}

/**
 * Test builds' `probePerturb=<backend>`: each vector's values moved one place along, finite and
 * unit-length but wrong, as a faulty GPU kernel returns them.
 */
export function perturbVectors(vectors: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(vectors.length);
  for (let from = 0; from < vectors.length; from += dim) {
    for (let i = 0; i < dim; i++) out[from + ((i + 1) % dim)] = vectors[from + i];
  }
  return out;
}
