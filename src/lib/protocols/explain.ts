import { getModelSpec, type ModelDtype } from '../embed/model-registry.ts';
import { modelRevision } from '../embed/vector-cache-key.ts';
import { choiceLabel } from './defaults.ts';
import type { PaperComparison } from '../protocol-kit/paper.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import type { FigureSources } from '../benchmarks/benchmark-def.ts';
import { requireProtocolRun } from '../benchmarks/registry.ts';

/** The plain summary the Reproduce page opens on, one benchmark at a time. */
export interface ReproduceSummary {
  /** What was recomputed, in one sentence. */
  recomputed: string;
  /** Retriever, model revision and whose choice it is. */
  model: string;
  /** Paper numbers matched exactly (same metric, scope, model): their labels. */
  exact: string[];
  /** Paper numbers our number only stands in for, and why. */
  proxy: string[];
  /** Paper numbers on another pool, model or k, and what differs. */
  otherScope: string[];
  /** When the paper prints no number for this protocol: what there is to compare instead. */
  none: string | null;
}

export function retrieverDescription(
  benchmark: string,
  retriever: string,
  dtype?: ModelDtype,
): string {
  const choice = choiceLabel(benchmark, retriever);
  const whose =
    choice === 'no paper'
      ? retriever === BM25_ID
        ? 'the first run on a declared table, which has no paper to follow'
        : 'picked on this page (a declared table has no paper to follow)'
      : `${choice === 'paper' ? "the paper's" : "MemLens's own"} choice`;
  if (retriever === BM25_ID) return `BM25 (rank_bm25 BM25Okapi), ${whose}`;
  const spec = getModelSpec(retriever);
  const d = dtype ?? spec.dtypes[0];
  return `${spec.label}, ${d}, revision ${modelRevision(spec, d)}: ${whose}`;
}

function label(c: PaperComparison): string {
  return `${c.paper.row} · ${c.paper.column}`;
}

export function reproduceSummary(
  benchmark: string,
  retriever: string,
  comparisons: readonly PaperComparison[],
  dtype?: ModelDtype,
): ReproduceSummary {
  const of = (kind: PaperComparison['comparability']) =>
    comparisons.filter((c) => c.comparability === kind);
  return {
    recomputed: requireProtocolRun(benchmark).recomputed,
    model: retrieverDescription(benchmark, retriever, dtype),
    exact: of('exact').map(label),
    proxy: of('proxy').map((c) => `${label(c)}: ${c.differs}`),
    otherScope: of('other scope').map((c) => `${label(c)}: ${c.differs}`),
    none:
      comparisons.length === 0
        ? (requireProtocolRun(benchmark).none ??
          'The paper reports no retrieval number for this protocol.')
        : null,
  };
}

export type { FigureSources } from '../benchmarks/benchmark-def.ts';

/** Where each of the page's two charts comes from, for its provenance line. */
export function figureSources(benchmark: string): FigureSources {
  return requireProtocolRun(benchmark).figures;
}
