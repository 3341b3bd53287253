// Which retrievers the playground offers: BM25 always, and each registered model whose files
// this site serves (MiniLM and BGE when `npm run models` fetched them). tiny-bert, the test
// model, always ships but has no real semantics: it is offered only when the teacher adds it.
import type { ModelDtype, ModelSpec } from '../../../lib/embed/model-registry.ts';
import { pageDtype, type SiteModels } from '../../../lib/embed/site-models.ts';
import { BM25_ID } from '../../../lib/protocol-kit/bm25-retriever.ts';

export interface RetrieverOption {
  id: string;
  label: string;
  kind: 'bm25' | 'dense';
  /** The weights the playground loads; null when the site serves none. */
  dtype: ModelDtype | null;
}

/** The other pages' dtype (`pageDtype`), so their vectors and the playground's are shared. */
export function playgroundDtype(models: SiteModels, spec: ModelSpec): ModelDtype | null {
  return pageDtype(models, spec.id);
}

export function bm25Option(): RetrieverOption {
  return { id: BM25_ID, label: 'BM25', kind: 'bm25', dtype: null };
}

export function modelOption(spec: ModelSpec, dtype: ModelDtype | null): RetrieverOption {
  return { id: spec.id, label: spec.label, kind: 'dense', dtype };
}

/** The test model: small and fast, with random weights (no real semantics). */
export const TEST_MODEL = 'tiny-bert';

/** The retrievers the page offers: the test model only when the teacher added it. */
export function offeredOptions(
  options: readonly RetrieverOption[],
  testModel: boolean,
): RetrieverOption[] {
  return options.filter((o) => testModel || o.id !== TEST_MODEL);
}

/** The real model the walk's dense step uses, where the site serves one; never the test model. */
export function walkModel(options: readonly RetrieverOption[]): string | null {
  const served = options.filter((o) => o.kind === 'dense' && o.dtype !== null).map((o) => o.id);
  return ['minilm', 'bge-small'].find((id) => served.includes(id)) ?? null;
}
