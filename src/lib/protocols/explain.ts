import { getModelSpec, type ModelDtype } from '../embed/model-registry.ts';
import { modelRevision } from '../embed/vector-cache-key.ts';
import { choiceLabel } from './defaults.ts';
import type { Comparability, PaperComparison } from '../protocol-kit/paper.ts';
import { formatDifference, formatOurs } from '../protocol-kit/report.ts';
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import type { FigureSources } from '../benchmarks/benchmark-def.ts';
import { requireProtocolRun } from '../benchmarks/registry.ts';

/** The plain summary the Reproduce page opens on, one benchmark at a time. */
export interface ReproduceSummary {
  /** What was recomputed, in one sentence. */
  recomputed: string;
  /** Retriever, model revision and whose choice it is. */
  model: string;
  /** One line per paper number of the view, ours beside it; our retriever's rows first. */
  lines: PaperLineView[];
  /** When the paper prints no number for this protocol: what there is to compare instead. */
  none: string | null;
}

/** A paper number beside ours, as the page's top line states it. */
export interface PaperLineView {
  /** The paper's row and column: "BM25 · Naive". */
  label: string;
  /** Both in the paper's unit ("53.6%", ".533"); ours '—' where no number of ours stands for it. */
  paper: string;
  ours: string;
  comparability: Comparability;
  sameRetriever: boolean;
  /** Why it is labelled so, in one sentence. */
  reason: string;
  /** Everything that differs (empty for exact), and where the paper prints the number. */
  differs: string;
  source: { paper: string; table: string; line: number };
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

/** The row without its trailing citation: "Dense (MiniLM) (Wang et al., 2020)" → "Dense (MiniLM)". */
function rowName(row: string): string {
  return row.replace(/\s*\([^()]*\d{4}[a-z]?\)\s*$/, '');
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** One sentence: why a paper number and ours are labelled as they are. */
export function lineReason(c: PaperComparison, retrieverLabel: string): string {
  if (!c.sameRetriever) {
    return `Another retriever's row: ours (${retrieverLabel}) has no number for it.`;
  }
  if (c.comparability === 'exact') {
    return `Same metric, pool, retriever and k: ours − paper = ${formatDifference(c)}.`;
  }
  const equal = c.ours !== null && formatOurs(c) === formatOurs({ ...c, ours: c.paper.value });
  if (c.comparability === 'proxy') {
    return sentence(`${equal ? 'equal, but still a proxy' : 'a proxy'}: ${c.differs}`);
  }
  return sentence(`${equal ? 'equal, but on another scope' : 'another scope'}: ${c.differs}`);
}

/** The page's top lines: one per paper number, our retriever's first. */
export function paperLines(
  comparisons: readonly PaperComparison[],
  retrieverLabel: string,
): PaperLineView[] {
  const unit = (c: PaperComparison, text: string) => (c.paper.unit === '%' ? `${text}%` : text);
  const ordered = [
    ...comparisons.filter((c) => c.sameRetriever),
    ...comparisons.filter((c) => !c.sameRetriever),
  ];
  return ordered.map((c) => ({
    label: `${rowName(c.paper.row)} · ${c.paper.column}`,
    paper: unit(c, c.paper.value_text),
    ours: c.ours === null ? '—' : unit(c, formatOurs(c)),
    comparability: c.comparability,
    sameRetriever: c.sameRetriever,
    reason: lineReason(c, retrieverLabel),
    differs: c.differs,
    source: { paper: c.paper.paper, table: c.paper.table, line: c.paper.source_line },
  }));
}

export function reproduceSummary(
  benchmark: string,
  retriever: string,
  comparisons: readonly PaperComparison[],
  dtype?: ModelDtype,
): ReproduceSummary {
  const retrieverLabel = retriever === BM25_ID ? 'BM25' : getModelSpec(retriever).label;
  return {
    recomputed: requireProtocolRun(benchmark).recomputed,
    model: retrieverDescription(benchmark, retriever, dtype),
    lines: paperLines(comparisons, retrieverLabel),
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
