import { getModelSpec, type ModelDtype } from '../embed/model-registry.ts';
import { modelRevision } from '../embed/vector-cache-key.ts';
import { choiceLabel } from './defaults.ts';
import type { PaperComparison } from '../protocol-kit/paper.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import type { BenchmarkId } from '../protocol-kit/types.ts';

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

const RECOMPUTED: Record<BenchmarkId, string> = {
  inmind:
    "InMind's Naive RAG control: for each of the 125 tasks, the injected chunk ranked against the 486 background turns, under the naive and the indirect query.",
  'inmind-figure4':
    "InMind's Figure 4 panel: cosine of each indirect query with its target memory (the user_message) against the 486 background turns.",
  locomo:
    "LoCoMo's Figure 4 panel: each QA question against its evidence turns and the other turns of its conversation.",
  'locomo-plus':
    "LoCoMo-Plus: in release mode, the release's per-item scores.bge recomputed pairwise; in retrieval mode (MemLens's own), each trigger against its cue turns stitched into a LoCoMo conversation.",
  'locomo-conv':
    "LoCoMo-Conv's Table 4 retrieval: recall@10 of the gold evidence turns per query style, one index per conversation.",
};

const NONE: Partial<Record<BenchmarkId, string>> = {
  'inmind-figure4':
    'Figure 4 prints no numbers: compare the shape of the density chart with the paper’s panel.',
  locomo:
    'Figure 4 prints no numbers: compare the shape of the density chart with the paper’s panel.',
  'locomo-plus':
    'The paper prints no number here; release mode compares with the release’s own per-item scores.',
};

export function retrieverDescription(
  benchmark: BenchmarkId,
  retriever: string,
  dtype?: ModelDtype,
): string {
  const whose = choiceLabel(benchmark, retriever) === 'paper' ? "the paper's" : "MemLens's own";
  if (retriever === BM25_ID) return `BM25 (rank_bm25 BM25Okapi), ${whose} choice`;
  const spec = getModelSpec(retriever);
  const d = dtype ?? spec.dtypes[0];
  return `${spec.label}, ${d}, revision ${modelRevision(spec, d)}: ${whose} choice`;
}

function label(c: PaperComparison): string {
  return `${c.paper.row} · ${c.paper.column}`;
}

export function reproduceSummary(
  benchmark: BenchmarkId,
  retriever: string,
  comparisons: readonly PaperComparison[],
  dtype?: ModelDtype,
): ReproduceSummary {
  const of = (kind: PaperComparison['comparability']) =>
    comparisons.filter((c) => c.comparability === kind);
  return {
    recomputed: RECOMPUTED[benchmark],
    model: retrieverDescription(benchmark, retriever, dtype),
    exact: of('exact').map(label),
    proxy: of('proxy').map((c) => `${label(c)}: ${c.differs}`),
    otherScope: of('other scope').map((c) => `${label(c)}: ${c.differs}`),
    none:
      comparisons.length === 0
        ? (NONE[benchmark] ?? 'The paper reports no retrieval number for this protocol.')
        : null,
  };
}

/** Where each of the page's two charts comes from, for its provenance line. */
export interface FigureSources {
  similarity: string;
  recall: string;
}

export function figureSources(benchmark: BenchmarkId): FigureSources {
  const ours = "not a paper figure: MemLens's own view of this protocol";
  switch (benchmark) {
    case 'inmind':
      return {
        similarity: `${ours} (InMind Table 1 Naive RAG protocol; Figure 4 is the "InMind — Figure 4" protocol)`,
        recall: 'InMind paper, Table 1 (Naive RAG control, App. 15.3) protocol; rank-based recall',
      };
    case 'inmind-figure4':
      return {
        similarity: 'InMind paper, Figure 4 (InMind panel); protocol: App. 9',
        recall: `${ours} (InMind Figure 4 protocol)`,
      };
    case 'locomo':
      return {
        similarity: 'InMind paper, Figure 4 (LoCoMo panel); protocol: App. 9',
        recall: `${ours} (InMind Figure 4 LoCoMo protocol)`,
      };
    case 'locomo-plus':
      return {
        similarity:
          "InMind paper, Figure 4 (LoCoMo-Plus panel), approximated: cue turns in conversation index mod 10 (MemLens's own)",
        recall: `${ours} (LoCoMo-Plus retrieval mode)`,
      };
    case 'locomo-conv':
      return {
        similarity: `${ours} (LoCoMo-Conv recall protocol)`,
        recall: 'LoCoMo-Conv paper, Table 4 (Retrieval Recall@10) protocol; PROTOCOL.md',
      };
  }
}
