// The one retriever reference. The single view's `ret`, the comparison's `cmp`, the pickers and the
// CLI's `--retriever`, `--model` and `--compare` are read by `parseRetrieverRef` where they enter;
// the reference then travels as it is, and a run resolves a registry model once
// (`resolveRetrieverRef`) into the `ModelRef` the hub, the worker and the vector-cache key read.
import {
  BROUGHT_FORMS,
  broughtBase,
  parseBroughtRef,
  type BroughtRef,
} from '../embed/brought-model.ts';
import { MODEL_DTYPES, type ModelDtype } from '../embed/model-registry.ts';
import { resolveModelRef, type ModelRef, type ModelRefDefaults } from '../embed/model-ref.ts';
import { BM25_ID } from './bm25-retriever.ts';
import {
  SUBMISSION_FORMS,
  formatSubmissionRef,
  parseSubmissionRef,
  type SubmissionRef,
} from './submission-retriever.ts';

/** BM25: no model, no weights. */
export interface Bm25Ref {
  readonly id: typeof BM25_ID;
  readonly dtype: null;
  readonly brought?: undefined;
  readonly submission?: undefined;
}

/** A model of the registry; dtype null: the site's first served one, or the CLI's `--dtype`. */
export interface ModelChoiceRef {
  readonly id: string;
  readonly dtype: ModelDtype | null;
  readonly brought?: undefined;
  readonly submission?: undefined;
}

/** A model the reader brings (`hub:`, `onnx:`, `pack:`); `id` is its reference without the dtype. */
export interface BroughtRetrieverRef {
  readonly id: string;
  readonly dtype: ModelDtype | null;
  readonly brought: BroughtRef;
  readonly submission?: undefined;
}

/** One system of an InMind submission, ranked by the Target Recall proxy. */
export interface SubmissionRetrieverRef {
  readonly id: string;
  readonly dtype: null;
  readonly submission: SubmissionRef;
  readonly brought?: undefined;
}

/**
 * One retriever: `bm25`, a model id, a model id with its weights (`minilm:q8`), a model the reader
 * brings (`hub:OWNER/NAME@COMMIT[:DTYPE]`, `onnx:PATH[:DTYPE]`, `pack:FILE`), or one system of an
 * InMind submission (`sub:TABLE:SYSTEM` on the page, `submission:FILE[:SYSTEM]` in the CLI).
 */
export type RetrieverRef = Bm25Ref | ModelChoiceRef | BroughtRetrieverRef | SubmissionRetrieverRef;

/** What a single run takes: BM25 or a registry model. */
export type RegistryRetrieverRef = Bm25Ref | ModelChoiceRef;

/** What a protocol retrieves with once resolved: BM25, or a model by its full reference. */
export type ResolvedRetriever = typeof BM25_ID | ModelRef;

export const BM25_REF: Bm25Ref = { id: BM25_ID, dtype: null };

export class RetrieverRefError extends Error {
  override name = 'RetrieverRefError';
}

const MODEL_ID = /^[A-Za-z0-9][\w.-]*$/;

export function isBm25(ref: RetrieverRef): ref is Bm25Ref {
  return ref.id === BM25_ID && !ref.brought && !ref.submission;
}

/**
 * Reads untrusted text; every malformed one is refused with a message that quotes it, after
 * `where` (`retriever "x": …` by default, `ret: "x": …` for the URL's parameter).
 */
export function parseRetrieverRef(text: string, where = 'retriever'): RetrieverRef {
  const submission = parseSubmissionRef(text);
  if (submission) return { id: formatSubmissionRef(submission), dtype: null, submission };
  const brought = parseBroughtRef(text);
  if (brought) {
    return { id: broughtBase(brought), dtype: 'dtype' in brought ? brought.dtype : null, brought };
  }
  const refuse = (problem: string) =>
    new RetrieverRefError(`${where} ${JSON.stringify(text)}: ${problem}`);
  const [id, dtype, ...rest] = text.trim().split(':');
  if (!MODEL_ID.test(id) || rest.length > 0) {
    throw refuse(`expected ID or ID:DTYPE, or ${BROUGHT_FORMS}, or ${SUBMISSION_FORMS}`);
  }
  if (dtype === undefined) return id === BM25_ID ? BM25_REF : { id, dtype: null };
  const known = MODEL_DTYPES.find((d) => d === dtype);
  if (known === undefined) throw refuse(`dtype must be one of ${MODEL_DTYPES.join(', ')}`);
  if (id === BM25_ID) throw refuse('bm25 has no dtype');
  return { id, dtype: known };
}

/** The text `parseRetrieverRef` reads back into the same reference. */
export function formatRetrieverRef(ref: RetrieverRef): string {
  return ref.dtype === null ? ref.id : `${ref.id}:${ref.dtype}`;
}

/** BM25 or a registry model, else an error: a single run takes no brought model or submission. */
export function registryRef(ref: RetrieverRef, where = 'retriever'): RegistryRetrieverRef {
  if (ref.brought || ref.submission) {
    throw new RetrieverRefError(
      `${where} ${JSON.stringify(formatRetrieverRef(ref))}: expected bm25, ID or ID:DTYPE`,
    );
  }
  return ref;
}

/**
 * The one resolution of a reference: BM25, or the registry's model in the reference's dtype, else
 * the default's (the site's served one, the CLI's `--dtype`); `where` names it in the errors.
 */
export function resolveRetrieverRef(
  ref: RegistryRetrieverRef,
  defaults: ModelRefDefaults = {},
  where = 'retriever',
): ResolvedRetriever {
  if (isBm25(ref)) return BM25_ID;
  return resolveModelRef(ref.id, { ...defaults, dtype: ref.dtype ?? defaults.dtype }, where);
}
