/** The reproduce CLI's runs: one retriever's protocol and figures, or LoCoMo-Plus release mode. */
import type { Catalog } from '../../src/lib/db/catalog.ts';
import type { CacheCounts } from '../../src/lib/embed/cached-embedder.ts';
import type { ModelDtype } from '../../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { nodeRuntime } from '../../src/lib/embed/node-runtime.ts';
import type { ProtocolSpec } from '../../src/lib/protocols/build.ts';
import { choiceLabel, paperDefault } from '../../src/lib/protocols/defaults.ts';
import { scoreProtocol, type Evaluation } from '../../src/lib/protocol-kit/evaluate.ts';
import { figuresOf, type Figures } from '../../src/lib/protocol-kit/figures.ts';
import { loadLocomoPlusRelease, loadPaperRows } from '../../src/lib/protocol-kit/inputs.ts';
import {
  recomputeRelease,
  type ReleaseComparison,
} from '../../src/lib/protocol-kit/locomo-plus-release.ts';
import { BM25_ID, RetrieverPool } from '../../src/lib/protocol-kit/pool.ts';
import { summaryLines, targetRankLine } from '../../src/lib/protocol-kit/report.ts';
import type { ResolvedRetriever } from '../../src/lib/protocol-kit/retriever-ref.ts';
import type { Protocol } from '../../src/lib/protocol-kit/types.ts';
import { paperRowsWhere, paperTargetOf } from '../../src/lib/benchmarks/registry.ts';
import { runProtocol } from '../../src/lib/protocols/run.ts';
import { factoryFor, vectorLine } from './reproduce-embedders.ts';

/** What a run reads of the command line (scripts/reproduce.ts's CliOptions holds all of it). */
export interface RunOptions {
  spec: ProtocolSpec;
  /** `bm25` or the model's id, as the report names it. */
  retriever: string;
  /** The dense model; null for BM25. */
  model: ModelRef | null;
  k: number;
  queryPrefix: boolean;
  modelRoot: string | null;
  time: number;
  syntheticDims: number | null;
  dtype: ModelDtype | null;
  alpha: number;
  benchmarkFile: string | null;
}

export interface CliRun {
  protocol: Protocol;
  evaluation: Evaluation;
  figures: Figures;
  k: number;
  lines: string[];
  /** Seconds to rescore and recompute every figure from cached vectors / tokens, per repeat. */
  recomputeSeconds: number[];
}

export interface ReleaseRun {
  release: ReleaseComparison;
  lines: string[];
}

/** What the run retrieves with: BM25 or the parsed model reference. */
function retrieverRef(opts: RunOptions): ResolvedRetriever {
  return opts.model ?? BM25_ID;
}

export async function reproduce(opts: RunOptions, catalog: Catalog): Promise<CliRun> {
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const pool = new RetrieverPool(factoryFor(opts, counts));
  try {
    const retriever = await pool.retriever(retrieverRef(opts), opts.queryPrefix);
    const { protocol, evaluation } = await runProtocol(catalog, opts.spec, retriever);
    const k = opts.k || protocol.defaultK;
    const paper = opts.benchmarkFile === null ? await loadPaperRows(catalog, paperRowsWhere()) : [];
    const targetOf = paperTargetOf(protocol.benchmark);
    const context = { dtype: opts.model?.dtype };
    const figures = figuresOf(evaluation, k, paper, targetOf, context);
    const recomputeSeconds: number[] = [];
    for (let i = 0; i < opts.time; i++) {
      const t0 = performance.now();
      figuresOf(scoreProtocol(protocol, retriever), k, paper, targetOf, context);
      recomputeSeconds.push((performance.now() - t0) / 1000);
    }
    const ranOn =
      opts.model && opts.syntheticDims === null ? ` on ${nodeRuntime(opts.model.dtype)}` : '';
    const head = `${paperDefault(protocol.benchmark).source} · retriever ${opts.retriever} (${choiceLabel(protocol.benchmark, opts.retriever)})${ranOn}`;
    const vectors = vectorLine(counts);
    const ranks = opts.benchmarkFile === null ? [] : ['', targetRankLine(evaluation)];
    const lines = [
      head,
      ...summaryLines(evaluation, k, figures.paper),
      ...ranks,
      ...(vectors ? [vectors] : []),
    ];
    return { protocol, evaluation, figures, k, lines, recomputeSeconds };
  } finally {
    await pool.dispose();
  }
}

function formatDeviation(value: number | null): string {
  return value === null ? '—' : value.toExponential(2);
}

export function releaseLines(r: ReleaseComparison): string[] {
  const worst = [...r.rows]
    .filter((row) => row.deviation !== null)
    .sort((a, b) => Math.abs(b.deviation ?? 0) - Math.abs(a.deviation ?? 0))
    .slice(0, 5);
  return [
    `locomo-plus release mode · ${r.modelLabel} (${r.modelId}, ${r.dtype}) · ${r.rows.length} records`,
    '  cosine(cue_dialogue, trigger_query), both embedded whole with no instruction prefix, as rank.py',
    `  released scores.bge vs recomputed: max |deviation| ${formatDeviation(r.maxAbsDeviation)} ` +
      `(${r.worstItem ?? '—'}), mean ${formatDeviation(r.meanAbsDeviation)} over ${r.compared} items`,
    `  comparability: ${r.comparability}${r.differs ? ` (${r.differs})` : ''}`,
    `  ${r.bm25Note}`,
    '',
    'largest deviations (item, relation, released, recomputed):',
    ...worst.map(
      (w) =>
        `  ${w.item_id.padEnd(7)} ${w.relation_type.padEnd(10)} ${w.released?.toFixed(6) ?? '—'} ${w.recomputed.toFixed(6)}`,
    ),
  ];
}

/** LoCoMo-Plus release mode: the release's per-item scores.bge beside ours, with dense `model`. */
export async function releaseRun(
  opts: RunOptions,
  model: ModelRef,
  catalog: Catalog,
): Promise<ReleaseRun> {
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const pool = new RetrieverPool(factoryFor(opts, counts));
  try {
    const pairs = await loadLocomoPlusRelease(catalog);
    const embedder = await pool.embedder(model);
    const release = await recomputeRelease(pairs, embedder, pool.vectors(model), {
      dtype: model.dtype,
    });
    const vectors = vectorLine(counts);
    return { release, lines: [...releaseLines(release), ...(vectors ? [vectors] : [])] };
  } finally {
    await pool.dispose();
  }
}
