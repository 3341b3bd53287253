// What MemLens knows about one benchmark, in one place: its files and how they become tables,
// its paper's released results, its page, and the protocols the Reproduce page and the CLI run.
import type { ConversationRow, QueryRow, SessionRow, TurnRow } from '../datasets/tables.ts';

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
  /** Which files the rows came from, by part (`locomo-conv composed` → its label). */
  files: Readonly<Record<string, string>>;
}

export interface DatasetDef {
  /**
   * 'core': loaded with the released results, before the first SQL feature (InMind);
   * 'benchmarks': loaded after, by `load`.
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

export interface ProtocolEntry {
  /** The Reproduce page's and the CLI's `--benchmark` value. */
  id: string;
  label: string;
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
}
