import type { Catalog } from '../db/catalog.ts';
import type { ConversationRow, QueryRow, SessionRow, TurnRow } from '../datasets/tables.ts';
import { parseJsonDocument } from '../datasets/jsonl.ts';
import { locomoTables } from '../datasets/locomo.ts';
import { locomoPlusTables } from '../datasets/locomo-plus.ts';
import { locomoConvComposedTables, locomoConvDialogTables } from '../datasets/locomo-conv.ts';
import { memuseTables } from '../datasets/memuse.ts';
import { fetchSourceText, type FetchOptions } from './fetch-source.ts';
import { sitePathOf, sourceById } from './sources.ts';
import { ChecksumError, IntegrityError } from './integrity.ts';
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

function add(
  rows: BenchmarkRows,
  part: Partial<Pick<BenchmarkRows, 'conversations' | 'sessions' | 'turns' | 'queries'>>,
) {
  rows.conversations.push(...(part.conversations ?? []).map((r) => pick(r, CONVERSATION_COLUMNS)));
  rows.sessions.push(...(part.sessions ?? []).map((r) => pick(r, SESSION_COLUMNS)));
  rows.turns.push(...(part.turns ?? []).map((r) => pick(r, TURN_COLUMNS)));
  rows.queries.push(...(part.queries ?? []).map((r) => pick(r, QUERY_COLUMNS)));
}

/** The first manifest entry the site (or upstream) can serve: the full file, else its excerpt. */
async function firstAvailable(ids: string[], opts: FetchOptions, warnings: string[]) {
  let lastError: unknown = null;
  for (const [i, id] of ids.entries()) {
    try {
      return await fetchSourceText(sourceById(id), opts);
    } catch (err) {
      lastError = err;
      const next = ids[i + 1];
      if (next && (err instanceof ChecksumError || err instanceof IntegrityError)) {
        warnings.push(`${err.message}; using ${sitePathOf(sourceById(next))} instead`);
      }
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

export async function collectBenchmarkRows(opts: FetchOptions): Promise<BenchmarkRows> {
  const rows = emptyRows();
  const label = (s: { source: { dataset: string; file: string } }) =>
    `${s.source.dataset}/${s.source.file}`;

  const locomo = await fetchSourceText(sourceById('locomo'), opts);
  const lt = locomoTables(parseJsonDocument(locomo.text, label(locomo)), label(locomo));
  add(rows, lt);
  rows.extras.locomo_observations = lt.locomo_observations;
  rows.extras.locomo_session_summaries = lt.locomo_session_summaries;
  rows.files.locomo = label(locomo);

  const plus = await fetchSourceText(sourceById('locomo-plus'), opts);
  const pt = locomoPlusTables(parseJsonDocument(plus.text, label(plus)), label(plus));
  add(rows, { turns: pt.turns, queries: pt.queries });
  rows.extras.locomo_plus_items = pt.locomo_plus_items;
  rows.files['locomo-plus'] = label(plus);

  try {
    const dialog = await firstAvailable(
      ['locomo-conv-dialog', 'locomo-conv-dialog-sample0'],
      opts,
      rows.warnings,
    );
    const dt = locomoConvDialogTables(parseJsonDocument(dialog.text, label(dialog)), label(dialog));
    add(rows, dt);
    rows.extras.locomo_conv_supportive = dt.locomo_conv_supportive;
    rows.files['locomo-conv'] = label(dialog);
    const composed = await firstAvailable(
      ['locomo-conv-multimem-full', 'locomo-conv-multimem'],
      opts,
      rows.warnings,
    );
    add(
      rows,
      locomoConvComposedTables(parseJsonDocument(composed.text, label(composed)), label(composed)),
    );
    rows.files['locomo-conv composed'] = label(composed);
  } catch (err) {
    rows.skipped.push(`LoCoMo-Conv: ${errorMessage(err)}`);
  }

  try {
    const memuse = await firstAvailable(
      ['memuse-instances', 'memuse-instances-first3'],
      opts,
      rows.warnings,
    );
    const mt = memuseTables(memuse.text, label(memuse));
    add(rows, mt);
    rows.extras.memuse_sub_questions = mt.memuse_sub_questions;
    rows.extras.memuse_instances = mt.memuse_instances;
    rows.files.memuse = label(memuse);
  } catch (err) {
    rows.skipped.push(`MemUse: ${errorMessage(err)}`);
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
