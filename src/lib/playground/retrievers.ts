// Which retrievers the playground offers: BM25 always, and each registered model whose files
// this site serves (tiny-bert always ships; MiniLM and BGE when `npm run models` fetched them).
import type { ModelDtype, ModelSpec } from '../embed/model-registry.ts';
import { pageDtype, type SiteModels } from '../embed/site-models.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';

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

/** The model the walk's dense step uses: a real one where served, else the test model. */
export function walkModel(options: readonly RetrieverOption[]): string {
  const served = options.filter((o) => o.kind === 'dense' && o.dtype !== null).map((o) => o.id);
  return ['minilm', 'bge-small', 'tiny-bert'].find((id) => served.includes(id)) ?? 'tiny-bert';
}
