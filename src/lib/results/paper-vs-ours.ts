// The papers' numbers and ours side by side, on keys that join: the `paper_vs_ours` table, and the
// shape a run made in the browser is saved in.
import { paperLinks } from '../benchmarks/registry.ts';
import type { Catalog } from '../db/catalog.ts';
import { listModelSpecs, type ModelSpec } from '../embed/model-registry.ts';
import { paperRowsQuery } from '../protocol-kit/inputs.ts';
import {
  inPaperUnit,
  judge,
  type Comparability,
  type PaperComparison,
  type PaperRow,
  type PaperTargetOf,
} from '../protocol-kit/paper.ts';
import type { ReproducedRow } from './reproduced-csv.ts';

/**
 * One paper number beside one of ours: `benchmark, system, metric, k, scope` join the two. The
 * paper's row and both values come first (the console shows the first columns).
 */
export interface PaperVsOursRow {
  /** The paper's row name, as printed ('Dense (emb3-large) (OpenAI, 2024a)'). */
  paper_row: string;
  /** In the paper's unit. */
  paper_value: number;
  /** Ours in the paper's unit; null where no number of ours stands for the row. */
  ours_value: number | null;
  /** ours − paper wherever both exist; read it with `comparability`. */
  difference: number | null;
  unit: string;
  comparability: Comparability;
  /** True when the paper's row is another retriever's than ours (their BM25 beside our MiniLM). */
  cross_system: boolean;
  /** The protocol id (`npm run reproduce -- --benchmark`). */
  benchmark: string;
  /** The query series (InMind's naive/indirect, LoCoMo-Conv's styles). */
  scope: string;
  /** Our retriever: `bm25` or a model id (`minilm`). */
  system: string;
  system_label: string;
  /** Always `recall`: the rank-based number a paper row is set beside. */
  metric: string;
  /** Our k. */
  k: number;
  /** What differs from the paper, in one line; empty for `exact`. */
  differs: string;
  paper: string;
  paper_k: number;
  paper_system: string;
  paper_metric: string;
  paper_table: string;
  paper_column: string;
  source_line: number;
  /** Queries behind our number. */
  n: number | null;
  model: string;
  dtype: string;
  revision: string;
  /** Where our number comes from: the CLI command, or `browser` for a saved run. */
  command: string;
}

/** One protocol's paper link: its rows of `results` and how each maps onto our series. */
export interface PaperLinkRows {
  benchmark: string;
  rows: readonly PaperRow[];
  targetOf: PaperTargetOf;
}

/** The registry id of a published row's retriever; null for a model the registry lacks. */
function retrieverOf(row: ReproducedRow, specs: readonly ModelSpec[]): string | null {
  if (row.system === 'BM25') return 'bm25';
  const spec = specs.find((s) => s.upstream === row.model || s.label === row.model);
  return spec?.id ?? null;
}

/**
 * Every paper row beside our published recall on its series: the paper's retriever when we ran
 * it (else each of ours, saying so), at the paper's k when we have it (else at each k).
 */
export function paperVsOurs(
  links: readonly PaperLinkRows[],
  reproduced: readonly ReproducedRow[],
  specs: readonly ModelSpec[] = listModelSpecs(),
): PaperVsOursRow[] {
  return links.flatMap(({ benchmark, rows, targetOf }) =>
    rows.flatMap((paper) => {
      const target = targetOf(paper);
      if (!target) return [];
      const series = reproduced.filter(
        (r) => r.benchmark === benchmark && r.variant === target.series && r.metric === 'recall',
      );
      const known = series.flatMap((r) => {
        const retriever = retrieverOf(r, specs);
        return retriever === null || r.k === null ? [] : [{ ours: r, retriever, k: r.k }];
      });
      const same = known.filter((c) => c.retriever === target.retriever);
      const mine = same.length > 0 ? same : known;
      const atK = mine.filter((c) => c.k === target.k);
      return (atK.length > 0 ? atK : mine).map(({ ours, retriever, k }) => {
        const { comparability, differs, sameRetriever } = judge(target, {
          retrieverId: retriever,
          retrieverLabel: ours.row,
          k,
          scope: ours.scope || null,
          dtype: ours.dtype,
        });
        const value = inPaperUnit(ours.unit === '%' ? ours.value / 100 : ours.value, paper.unit);
        return {
          ...valueColumns(paper, value, comparability, !sameRetriever),
          benchmark,
          scope: target.series,
          system: retriever,
          system_label: ours.row,
          metric: 'recall',
          k,
          differs,
          ...paperColumns(paper, target.k),
          n: ours.n,
          model: ours.model,
          dtype: ours.dtype,
          revision: ours.revision,
          command: ours.command,
        };
      });
    }),
  );
}

/** The columns that lead each row: the paper's row, both values and how they compare. */
function valueColumns(
  paper: PaperRow,
  ours: number | null,
  comparability: Comparability,
  crossSystem: boolean,
) {
  return {
    paper_row: paper.row,
    paper_value: paper.value,
    ours_value: ours,
    difference: ours === null ? null : ours - paper.value,
    unit: paper.unit,
    comparability,
    cross_system: crossSystem,
  };
}

function paperColumns(paper: PaperRow, k: number) {
  return {
    paper: paper.paper,
    paper_k: k,
    paper_system: paper.system,
    paper_metric: paper.metric,
    paper_table: paper.table,
    paper_column: paper.column,
    source_line: paper.source_line,
  };
}

/** What a browser run knows of itself, beside its paper comparison. */
export interface BrowserRun {
  benchmark: string;
  retrieverId: string;
  retrieverLabel: string;
  k: number;
  model: string;
  dtype: string;
  revision: string;
  /** Queries behind each series' number. */
  queries: ReadonlyMap<string, number>;
}

/** A run made in the browser, as rows of `paper_vs_ours`'s shape (`command` is `browser`). */
export function browserRunRows(
  comparisons: readonly PaperComparison[],
  run: BrowserRun,
): PaperVsOursRow[] {
  return comparisons
    .filter((c) => c.sameRetriever)
    .map((c) => ({
      ...valueColumns(c.paper, c.ours, c.comparability, false),
      benchmark: run.benchmark,
      scope: c.series,
      system: run.retrieverId,
      system_label: run.retrieverLabel,
      metric: 'recall',
      k: run.k,
      differs: c.differs,
      ...paperColumns(c.paper, c.paperK),
      n: run.queries.get(c.series) ?? null,
      model: run.model,
      dtype: run.dtype,
      revision: run.revision,
      command: 'browser',
    }));
}

/** The DuckDB table a saved run goes to: one per benchmark, retriever, weights and k. */
export function runTableName(run: Pick<BrowserRun, 'benchmark' | 'retrieverId' | 'dtype' | 'k'>) {
  const parts = ['run', run.benchmark, run.retrieverId, run.dtype, `k${run.k}`];
  return parts
    .filter((p) => p !== '')
    .join('_')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_');
}

/** `paper_vs_ours` in `catalog`, from its `results` and the published rows; none when empty. */
export async function loadPaperVsOurs(
  catalog: Catalog,
  reproduced: readonly ReproducedRow[],
): Promise<number> {
  const links = await Promise.all(
    paperLinks().map(async ({ benchmark, link }) => ({
      benchmark,
      rows: await catalog.run(paperRowsQuery(link.where)),
      targetOf: link.target,
    })),
  );
  const aligned = paperVsOurs(links, reproduced);
  if (aligned.length === 0) return 0;
  return catalog.loadRows('paper_vs_ours', aligned, 'data/results + data/reproduced');
}
