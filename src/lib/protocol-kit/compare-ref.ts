import {
  BROUGHT_FORMS,
  broughtBase,
  parseBroughtRef,
  type BroughtRef,
} from '../embed/brought-model.ts';
import { MODEL_DTYPES, type ModelDtype } from '../embed/model-registry.ts';
import {
  SUBMISSION_FORMS,
  formatSubmissionRef,
  parseSubmissionRef,
  type SubmissionRef,
} from './submission-retriever.ts';

/**
 * One retriever of a comparison: `bm25`, a model id, a model id with its weights (`minilm:q8`),
 * a model the reader brings (`hub:OWNER/NAME@COMMIT`, `onnx:PATH`, `pack:FILE`), or one system of
 * an InMind submission (`sub:TABLE:SYSTEM` on the page, `submission:FILE[:SYSTEM]` in the CLI).
 */
export interface CompareRef {
  /** `bm25`, the model id, or the brought reference without its dtype. */
  id: string;
  /** Null: the model's first dtype (or BM25 and packs, which have none). */
  dtype: ModelDtype | null;
  /** Present for a model the reader brings. */
  brought?: BroughtRef;
  /** Present for a submission's system, ranked by the Target Recall proxy. */
  submission?: SubmissionRef;
}

/** The one place a comparison's retriever text is read (the CLI's `--compare`, the page's URL). */
export function parseCompareRef(text: string): CompareRef {
  const submission = parseSubmissionRef(text);
  if (submission) return { id: formatSubmissionRef(submission), dtype: null, submission };
  const brought = parseBroughtRef(text);
  if (brought) {
    return { id: broughtBase(brought), dtype: 'dtype' in brought ? brought.dtype : null, brought };
  }
  const [id, dtype, ...rest] = text.trim().split(':');
  if (!id || rest.length > 0) {
    throw new Error(
      `retriever "${text}": expected ID or ID:DTYPE, or ${BROUGHT_FORMS}, or ${SUBMISSION_FORMS}`,
    );
  }
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
