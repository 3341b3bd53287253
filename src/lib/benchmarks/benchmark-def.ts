// What MemLens knows about one benchmark, in one place: its files and how they become tables,
// its paper's released results, its page, and the protocols the Reproduce page and the CLI run.
import type { ConversationRow, QueryRow, SessionRow, TurnRow } from '../datasets/tables.ts';
import type { ChartDef } from '../charts/chart-kit.ts';
import type { PaperInfo } from '../charts/paper-charts.ts';
import type { OverviewCandidate } from '../charts/overview.ts';
import type { InMindOptions } from '../protocol-kit/inmind.ts';
import type { LocomoPlusMode } from '../protocol-kit/locomo-plus.ts';
import type { PaperTargetOf } from '../protocol-kit/paper.ts';
import type { ExampleQuery } from './examples.ts';
import type { Protocol } from '../protocol-kit/types.ts';
import type { QueryRunner } from '../query/query-client.ts';

/** A fetched manifest file: its text and the `dataset/file` label errors name. */
export interface FetchedText {
  text: string;
  label: string;
}

/** The first of `ids` (data/sources.json) the site serves: the full file, else its excerpt. */
export type FetchFirst = (ids: readonly string[]) => Promise<FetchedText>;

/** Rows a benchmark adds to the shared tables, plus its own tables. */
export interface DatasetTables {
  conversations?: readonly ConversationRow[];
  sessions?: readonly SessionRow[];
  turns?: readonly TurnRow[];
  queries?: readonly QueryRow[];
  extras?: Readonly<Record<string, readonly object[]>>;
  /** Which files the rows came from, by part (the benchmark's id, or `<id> <part>`, → its label). */
  files: Readonly<Record<string, string>>;
}

export interface DatasetDef {
  /**
   * 'core': loaded with the released results, before the first SQL feature (InMind);
   * 'benchmarks': loaded by `load` once a page that reads them is shown (app/route-tables.ts).
   */
  phase: 'core' | 'benchmarks';
  /** A required dataset that fails stops the load; an optional one is skipped with a message. */
  required: boolean;
  /** data/sources.json ids of the files it reads. */
  sourceIds: readonly string[];
  /** DuckDB tables it fills (shared ones included). */
  tables: readonly string[];
  load?: (fetchFirst: FetchFirst) => Promise<DatasetTables>;
}

/** What the Reproduce page and the CLI run: a protocol id and its options. */
export interface ProtocolSpec {
  benchmark: string;
  inmind: InMindOptions;
  /** LoCoMo-Plus only: the release's pairwise scores (default) or MemLens's retrieval stitching. */
  locomoPlus: LocomoPlusMode;
  /** Values of the options that keep theirs here (`optionSlot`), by URL key; absent: none set. */
  options?: Readonly<Record<string, string>>;
}

/** One value of a protocol option, with the control's words and what choosing it implies. */
export interface OptionChoice<T extends string = string> {
  value: T;
  label: string;
  /** Where it is the paper's choice, what the paper calls it (the control says "label (note)"). */
  paperNote?: string;
  /** It runs the release's own comparison, not a retrieval: no k, no BM25, no query prefix. */
  release?: true;
  /** The query prefix a run starts with under it (absent: the paper's). */
  queryPrefix?: boolean;
}

/**
 * A protocol option, declared in its benchmark's folder: the Reproduce page draws a select for it,
 * the URL and the CLI read it (benchmarks/options.ts).
 */
export interface BenchmarkOption<T extends string = string> {
  /** The URL key. */
  key: string;
  /** The CLI flag, without its dashes. */
  flag: string;
  /** The control's label. */
  label: string;
  /** The usage line after the flag (the benchmark's label and the choices come before it). */
  help: string;
  choices: readonly OptionChoice<T>[];
  default: T;
  /** Protocol id → the paper's choice, which that protocol starts on instead of `default`. */
  paperChoice?: Readonly<Record<string, T>>;
  /** The protocols that show it; absent: every protocol of its benchmark. */
  protocols?: readonly string[];
  /** Kept when the reader picks another benchmark (else it restarts on the new one's choice). */
  keep?: true;
  /** Where the value sits in the spec (`optionSlot(key)` for a new option). */
  get(spec: ProtocolSpec): T;
  set(spec: ProtocolSpec, value: T): ProtocolSpec;
}

/** What a paper says a protocol uses, with the sentence it says it in. */
export interface PaperDefault {
  benchmark: string;
  /**
   * The k recall is read at until the reader picks one (the protocol's `defaultK`, known before
   * the protocol is built, so a control shows the k that runs).
   */
  k: number;
  /** Retriever id (`bm25` or a model id) the page and CLI start on. */
  retriever: string;
  /** Every retriever the paper itself ran for this protocol (the default among them). */
  paperRetrievers: readonly string[];
  /** Whether the paper embeds queries with the model's query prefix. */
  queryPrefix: boolean;
  /** InMind only: which memory is the target. */
  target?: InMindOptions['target'];
  /** "InMind paper, Figure 4": where the paper shows this protocol's numbers. */
  source: string;
  /** The paper's (or release's) own words the default follows. */
  sentence: string;
  /** Where the sentence is. */
  cite: string;
}

/** Where each of the Reproduce page's two charts comes from, for its provenance line. */
export interface FigureSources {
  similarity: string;
  recall: string;
}

/** The paper's rows the Reproduce page and the CLI set beside a protocol's numbers. */
export interface PaperLinkDef {
  /** A condition over `results` that selects them (trusted SQL, written here). */
  where: string;
  target: PaperTargetOf;
}

/** How a listed protocol runs: its builder, the paper's defaults and the page's words for it. */
export interface ProtocolRunDef {
  /** Reads what the benchmark needs (query values, run by `reader`) and builds its protocol. */
  build: (reader: QueryRunner, spec: ProtocolSpec) => Promise<Protocol>;
  defaults: PaperDefault;
  /** What was recomputed, in one sentence (the plain summary's first line). */
  recomputed: string;
  /** When the paper prints no number for it: what there is to compare instead. */
  none?: string;
  figures: FigureSources;
  /** Absent: the paper prints no number this protocol recomputes. */
  paper?: PaperLinkDef;
  /** The page sets InMind's Figure 4 panels (benchmarks/inmind/figure4.ts) beside the run. */
  figure4Panels?: true;
}

export interface ProtocolEntry {
  /** The Reproduce page's and the CLI's `--benchmark` value. */
  id: string;
  label: string;
  /** Absent: listed, but no builder runs it yet. */
  run?: ProtocolRunDef;
}

export interface BenchmarkDef {
  id: string;
  label: string;
  /** The paper's id in data/results/*.csv, when MemLens carries its released numbers. */
  paper: string | null;
  /** Its page in the nav: the InMind explorer, or the generic paper page. */
  page: { kind: 'inmind' | 'paper'; navLabel: string } | null;
  dataset: DatasetDef | null;
  protocols: readonly ProtocolEntry[];
  /** Its paper's page: the words and the charts over its released results. */
  results?: { info: PaperInfo; charts: readonly ChartDef[] };
  /** Where the home overview looks for its paper's best "asked for" and "used" numbers. */
  overview?: readonly OverviewCandidate[];
  /** The console's example queries over its tables, listed before the cross-benchmark ones. */
  examples?: readonly ExampleQuery[];
  /** Its protocols' options, in the order the controls and the usage list them. */
  options?: readonly BenchmarkOption[];
}
