import { MODEL_DTYPES, type ModelDtype } from '../embed/model-registry.ts';

/** One retriever of a comparison: `bm25`, a model id, or a model id with its weights (`minilm:q8`). */
export interface CompareRef {
  /** `bm25` or the model id. */
  id: string;
  /** Null: the model's first dtype (or BM25, which has none). */
  dtype: ModelDtype | null;
}

/** The one place a comparison's retriever text is read (the CLI's `--compare`, the page's URL). */
export function parseCompareRef(text: string): CompareRef {
  const [id, dtype, ...rest] = text.trim().split(':');
  if (!id || rest.length > 0) throw new Error(`retriever "${text}": expected ID or ID:DTYPE`);
  if (dtype === undefined) return { id, dtype: null };
  const known = MODEL_DTYPES.find((d) => d === dtype);
  if (known === undefined) {
    throw new Error(`retriever "${text}": dtype must be one of ${MODEL_DTYPES.join(', ')}`);
  }
  return { id, dtype: known };
}

export function formatCompareRef(ref: CompareRef): string {
  return ref.dtype === null ? ref.id : `${ref.id}:${ref.dtype}`;
}
