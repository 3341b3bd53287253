import type { Catalog } from '../db/catalog.ts';
import type { ConversationRow, QueryRow, SessionRow, TurnRow } from '../datasets/tables.ts';
import type { BenchmarkDef, DatasetTables, FetchFirst } from '../benchmarks/benchmark-def.ts';
import { BENCHMARK_DEFS } from '../benchmarks/registry.ts';
import { fetchSourceText, type FetchOptions } from '../data/fetch-source.ts';
import { sitePathOf, sourceById } from '../data/sources.ts';
import { ChecksumError, IntegrityError } from '../data/integrity.ts';
import { errorMessage } from '../common/error-message.ts';

/** Rows of the tables shared by all conversation datasets, plus each dataset's own extras. */
export interface BenchmarkRows {
  conversations: ConversationRow[];
  sessions: SessionRow[];
  turns: TurnRow[];
  queries: QueryRow[];
  extras: Record<string, object[]>;
  /** Which manifest file each dataset came from (full file or its excerpt). */
  files: Record<string, string>;
  skipped: string[];
  /** Files that failed their check while a fallback (an excerpt) was used instead. */
  warnings: string[];
}

const pick = <T extends object, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> => {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = row[k];
  return out;
};

const CONVERSATION_COLUMNS = [
  'dataset',
  'conv_id',
  'speaker_a',
  'speaker_b',
  'sessions',
  'turns',
] as const;
const SESSION_COLUMNS = ['dataset', 'conv_id', 'session', 'date', 'turn_count'] as const;
const TURN_COLUMNS = [
  'dataset',
  'conv_id',
  'session',
  'dia_id',
  'turn_index',
  'speaker',
  'date',
  'text',
  'caption',
  'img_url',
] as const;
const QUERY_COLUMNS = [
  'dataset',
  'query_id',
  'conv_id',
  'style',
  'category',
  'text',
  'answer',
  'gold_ids',
] as const;

function emptyRows(): BenchmarkRows {
  return {
    conversations: [],
    sessions: [],
    turns: [],
    queries: [],
    extras: {},
    files: {},
    skipped: [],
    warnings: [],
  };
}

function add(rows: BenchmarkRows, part: DatasetTables) {
  rows.conversations.push(...(part.conversations ?? []).map((r) => pick(r, CONVERSATION_COLUMNS)));
  rows.sessions.push(...(part.sessions ?? []).map((r) => pick(r, SESSION_COLUMNS)));
  rows.turns.push(...(part.turns ?? []).map((r) => pick(r, TURN_COLUMNS)));
  rows.queries.push(...(part.queries ?? []).map((r) => pick(r, QUERY_COLUMNS)));
}

/** The first manifest entry the site (or upstream) can serve: the full file, else its excerpt. */
function fetchFirst(opts: FetchOptions, warnings: string[]): FetchFirst {
  return async (ids) => {
    let lastError: unknown = null;
    for (const [i, id] of ids.entries()) {
      try {
        const fetched = await fetchSourceText(sourceById(id), opts);
        return {
          text: fetched.text,
          label: `${fetched.source.dataset}/${fetched.source.file}`,
        };
      } catch (err) {
        lastError = err;
        const next = ids[i + 1];
        if (next && (err instanceof ChecksumError || err instanceof IntegrityError)) {
          warnings.push(`${err.message}; using ${sitePathOf(sourceById(next))} instead`);
        }
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  };
}

/** Every registered benchmark's files of the 'benchmarks' phase, through its own adapter. */
export async function collectBenchmarkRows(
  opts: FetchOptions,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): Promise<BenchmarkRows> {
  const rows = emptyRows();
  const fetchText = fetchFirst(opts, rows.warnings);
  for (const def of defs) {
    const dataset = def.dataset;
    if (dataset?.phase !== 'benchmarks' || !dataset.load) continue;
    let tables: DatasetTables;
    try {
      tables = await dataset.load(fetchText);
    } catch (err) {
      if (dataset.required) throw err;
      rows.skipped.push(`${def.label}: ${errorMessage(err)}`);
      continue;
    }
    add(rows, tables);
    for (const [table, extra] of Object.entries(tables.extras ?? {})) {
      rows.extras[table] = [...(rows.extras[table] ?? []), ...extra];
    }
    Object.assign(rows.files, tables.files);
  }
  return rows;
}

export async function loadBenchmarkRows(
  catalog: Catalog,
  rows: BenchmarkRows,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tables: [string, readonly object[]][] = [
    ['conversations', rows.conversations],
    ['sessions', rows.sessions],
    ['turns', rows.turns],
    ['queries', rows.queries],
    ...Object.entries(rows.extras),
  ];
  for (const [table, tableRows] of tables) {
    if (tableRows.length === 0) continue;
    counts[table] = await catalog.loadRows(table, tableRows, `${table} (benchmarks)`);
  }
  return counts;
}
