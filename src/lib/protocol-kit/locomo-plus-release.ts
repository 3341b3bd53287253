import type { Embedder } from '../embed/embedder.ts';
import type { UnitVectors } from '../embed/unit-vectors.ts';
import type { Comparability } from './paper.ts';
import type { PrepareOptions } from './retriever.ts';

/** The reference the release's `scores.bge` came from (generation_pipeline/rank.py). */
export const RELEASE_MODEL_ID = 'bge-small';
export const RELEASE_DTYPE = 'fp32';

/** One released record, as rank.py scored it: the whole cue dialogue and the trigger, verbatim. */
export interface ReleasePair {
  item_id: string;
  item_index: number;
  relation_type: string;
  cue_dialogue: string;
  trigger_query: string;
  /** The release's `scores.bge`. */
  released: number | null;
  /** The release's `ranks.bm25`: its rank within the corpus rank.py scored. */
  releasedBm25Rank: number | null;
}

export interface ReleaseRow {
  item_id: string;
  relation_type: string;
  released: number | null;
  recomputed: number;
  /** recomputed − released; null when the release has no score. */
  deviation: number | null;
}

export interface ReleaseComparison {
  modelId: string;
  modelLabel: string;
  dtype: string;
  rows: ReleaseRow[];
  /** Items with a released score. */
  compared: number;
  maxAbsDeviation: number | null;
  meanAbsDeviation: number | null;
  /** Item with the largest |deviation|. */
  worstItem: string | null;
  comparability: Comparability;
  /** What differs from the release's computation; empty for `exact`. */
  differs: string;
  /** Why `scores.bm25` is not recomputed, with the largest released bm25 rank as evidence. */
  bm25Note: string;
}

/** Cosine of two vectors, in float64 as `util.cos_sim` reports it (it normalises first). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export function bm25Note(pairs: readonly ReleasePair[]): string {
  const maxRank = pairs.reduce((m, p) => Math.max(m, p.releasedBm25Rank ?? 0), 0);
  return (
    `scores.bm25 cannot be recomputed from the release: BM25's idf depends on the corpus, and ` +
    `rank.py scored the ≈3,100-pair pre-filter candidate set, not the 401 released records ` +
    `(its ranks.bm25 go up to ${maxRank})`
  );
}

function comparabilityOf(modelId: string, dtype: string): { c: Comparability; differs: string } {
  const differs = [
    modelId === RELEASE_MODEL_ID ? null : `model ${modelId}, not bge-small-en-v1.5 (MemLens's own)`,
    dtype === RELEASE_DTYPE ? null : `${dtype} weights, not fp32`,
  ].filter((d): d is string => d !== null);
  return { c: differs.length === 0 ? 'exact' : 'other scope', differs: differs.join('; ') };
}

/** Released vs recomputed per item, with the largest and mean |deviation|. */
export function compareRelease(
  pairs: readonly ReleasePair[],
  recomputed: readonly number[],
  model: { id: string; label: string; dtype: string },
): ReleaseComparison {
  const rows = pairs.map((p, i) => ({
    item_id: p.item_id,
    relation_type: p.relation_type,
    released: p.released,
    recomputed: recomputed[i],
    deviation: p.released === null ? null : recomputed[i] - p.released,
  }));
  let max: number | null = null;
  let sum = 0;
  let compared = 0;
  let worstItem: string | null = null;
  for (const r of rows) {
    if (r.deviation === null) continue;
    const d = Math.abs(r.deviation);
    compared++;
    sum += d;
    if (max === null || d > max) [max, worstItem] = [d, r.item_id];
  }
  const { c, differs } = comparabilityOf(model.id, model.dtype);
  return {
    modelId: model.id,
    modelLabel: model.label,
    dtype: model.dtype,
    rows,
    compared,
    maxAbsDeviation: max,
    meanAbsDeviation: compared === 0 ? null : sum / compared,
    worstItem,
    comparability: c,
    differs,
    bm25Note: bm25Note(pairs),
  };
}

/**
 * rank.py's `scores.bge` with whatever model is given: both texts embedded as documents (no
 * instruction prefix), pairwise cosine. Vectors go through `vectors` (the model's unit vectors,
 * shared with the dense retriever) so a rerun embeds nothing.
 */
export async function recomputeRelease(
  pairs: readonly ReleasePair[],
  embedder: Embedder,
  vectors: UnitVectors,
  options: PrepareOptions & { dtype?: string } = {},
): Promise<ReleaseComparison> {
  const texts = pairs.flatMap((p) => [p.cue_dialogue, p.trigger_query]);
  await vectors.fill(embedder, [{ kind: 'document', texts }], options);
  const vector = (text: string) => vectors.need('document', text);
  const scores = pairs.map((p) => cosine(vector(p.cue_dialogue), vector(p.trigger_query)));
  return compareRelease(pairs, scores, {
    id: embedder.spec.id,
    label: embedder.spec.label,
    dtype: options.dtype ?? embedder.spec.dtypes[0],
  });
}
