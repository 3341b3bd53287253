// What the protocols read from DuckDB, as query values with their row decoders: `inmind_tasks` /
// `lme_background` (core load), the shared `turns` / `queries` / `locomo_plus_items` tables
// (benchmark load), and the paper's and MemLens's published numbers beside ours.
import { defineQuery } from '../query/define-query.ts';
import type { QueryRunner } from '../query/query-client.ts';
import { tableNamesQuery } from '../query/catalog-queries.ts';
import { rowSchema, type RowDecoder } from '../query/row-schema.ts';
import { sql, trusted } from '../query/sql.ts';
import type { DatasetId, QueryRow, QueryStyle, TurnRow } from '../datasets/tables.ts';
import type { InMindTask, InMindTurn } from './inmind.ts';
import type { ReleasePair } from './locomo-plus-release.ts';
import { paperRow } from './paper.ts';

export class MissingTablesError extends Error {
  constructor(readonly tables: string[]) {
    super(`not loaded yet: ${tables.join(', ')}`);
    this.name = 'MissingTablesError';
  }
}

export async function requireTables(reader: QueryRunner, tables: readonly string[]): Promise<void> {
  const present = new Set((await reader.run(tableNamesQuery())).map((r) => r.table_name));
  const missing = tables.filter((t) => !present.has(t));
  if (missing.length > 0) throw new MissingTablesError(missing);
}

const inmindTaskColumns = rowSchema({
  task_id: 'number',
  domain: 'string',
  user_message: 'string',
  assistant_message: 'string',
  naive_query: 'string',
  query: 'string',
});

/** A row of `inmind_tasks` with the columns every InMind protocol (and the playground) reads. */
export const inmindTaskRow: RowDecoder<InMindTask> = (row, i) => ({ ...inmindTaskColumns(row, i) });

/** InMind tasks in file order with the fields the Naive RAG protocol reads. */
export const inmindTasksQuery = defineQuery(
  'InMind tasks',
  () => sql`SELECT task_id, domain, user_message, assistant_message,
  naive_query, query FROM inmind_tasks ORDER BY task_id`,
  inmindTaskRow,
);

const backgroundColumns = rowSchema({ id: 'string', raw_content: 'string', content: 'string' });

/** Background turns in file order: sessions by first appearance, turns by index. */
export const lmeBackgroundQuery = defineQuery(
  'LongMemEval background turns',
  () => sql`SELECT id, raw_content, content FROM lme_background
ORDER BY session_index, turn_index`,
  (row, i): InMindTurn => ({ ...backgroundColumns(row, i) }),
);

export async function loadInMindInputs(
  reader: QueryRunner,
): Promise<{ tasks: InMindTask[]; background: InMindTurn[] }> {
  await requireTables(reader, ['inmind_tasks', 'lme_background']);
  const [tasks, background] = await Promise.all([
    reader.run(inmindTasksQuery()),
    reader.run(lmeBackgroundQuery()),
  ]);
  return { tasks, background };
}

const turnColumns = rowSchema({
  conv_id: 'string',
  session: 'number',
  dia_id: 'string',
  turn_index: 'number',
  speaker: 'string',
  date: 'string',
  text: 'string',
  caption: 'string?',
});

/** One dataset's rows of the shared `turns` table, in file order. */
export const datasetTurnsQuery = defineQuery(
  'turns',
  (
    dataset: DatasetId,
  ) => sql`SELECT conv_id, session, dia_id, turn_index, speaker, date, text, caption
FROM turns WHERE dataset = ${dataset} ORDER BY rowid`,
  (row, i): Omit<TurnRow, 'dataset'> => ({ ...turnColumns(row, i), img_url: null }),
);

export async function loadTurns(reader: QueryRunner, dataset: DatasetId): Promise<TurnRow[]> {
  await requireTables(reader, ['turns']);
  return (await reader.run(datasetTurnsQuery(dataset))).map((t) => ({ dataset, ...t }));
}

const STYLES: readonly QueryStyle[] = [
  'question',
  'dialog',
  'implicit',
  'counterfactual',
  'composed',
  'trigger',
];

const queryColumns = rowSchema({
  query_id: 'string',
  conv_id: 'string',
  style: STYLES,
  category: 'number?',
  text: 'string',
  gold_ids: 'value',
});

/** One dataset's rows of the shared `queries` table, in file order. */
export const datasetQueriesQuery = defineQuery(
  'queries',
  (dataset: DatasetId) => sql`SELECT query_id, conv_id, style, category, text, gold_ids
FROM queries WHERE dataset = ${dataset} ORDER BY rowid`,
  (row, i): Omit<QueryRow, 'dataset'> => {
    const r = queryColumns(row, i);
    return {
      ...r,
      answer: null,
      gold_ids: Array.isArray(r.gold_ids) ? r.gold_ids.map(String) : [],
    };
  },
);

export async function loadQueries(reader: QueryRunner, dataset: DatasetId): Promise<QueryRow[]> {
  await requireTables(reader, ['queries']);
  return (await reader.run(datasetQueriesQuery(dataset))).map((q) => ({ dataset, ...q }));
}

export interface LocomoPlusItem {
  item_id: string;
  item_index: number;
  relation_type: string;
}

const itemColumns = rowSchema({ item_id: 'string', item_index: 'number', relation_type: 'string' });

export const locomoPlusItemsQuery = defineQuery(
  'LoCoMo-Plus items',
  () => sql`SELECT item_id, item_index, relation_type
FROM locomo_plus_items ORDER BY item_index`,
  (row, i): LocomoPlusItem => ({ ...itemColumns(row, i) }),
);

export async function loadLocomoPlusItems(reader: QueryRunner): Promise<LocomoPlusItem[]> {
  await requireTables(reader, ['locomo_plus_items']);
  return reader.run(locomoPlusItemsQuery());
}

const releaseColumns = rowSchema({
  item_id: 'string',
  item_index: 'number',
  relation_type: 'string',
  cue_dialogue: 'string',
  trigger_query: 'string',
  score_bge: 'number?',
  rank_bm25: 'number?',
});

/** LoCoMo-Plus release mode: the exact texts the release scored and its per-item scores. */
export const locomoPlusReleaseQuery = defineQuery(
  'LoCoMo-Plus release',
  () => sql`SELECT item_id, item_index, relation_type,
  cue_dialogue, trigger_query, score_bge, rank_bge, rank_bm25
FROM locomo_plus_items ORDER BY item_index`,
  (row, i): ReleasePair => {
    const r = releaseColumns(row, i);
    return {
      item_id: r.item_id,
      item_index: r.item_index,
      relation_type: r.relation_type,
      cue_dialogue: r.cue_dialogue,
      trigger_query: r.trigger_query,
      released: r.score_bge,
      releasedBm25Rank: r.rank_bm25,
    };
  },
);

/** LoCoMo-Plus records as the release scored them (release mode). */
export async function loadLocomoPlusRelease(reader: QueryRunner): Promise<ReleasePair[]> {
  await requireTables(reader, ['locomo_plus_items']);
  return reader.run(locomoPlusReleaseQuery());
}

/**
 * Paper numbers the Reproduce page sets beside its own: `where` is the registry's condition
 * (`paperRowsWhere`), written by the benchmark folders, never by a reader.
 */
export const paperRowsQuery = defineQuery(
  'paper rows',
  (where: string) => sql`SELECT DISTINCT paper, "table", "row", "column", value, value_text, unit,
  system, variant, metric, section, source_line
FROM results
WHERE ${trusted(where)}
ORDER BY paper, source_line, metric, variant`,
  paperRow,
);

/** The paper rows `where` selects (the registry's `paperRowsWhere`). */
export async function loadPaperRows(reader: QueryRunner, where: string) {
  await requireTables(reader, ['results']);
  return reader.run(paperRowsQuery(where));
}

/** One published MemLens number (data/reproduced), as the Reproduce page lists it. */
export interface PublishedRow {
  system: string;
  column: string;
  value: number;
  unit: string;
  n: number;
  model: string;
  dtype: string;
  revision: string;
  command: string;
}

const publishedColumns = rowSchema({
  row: 'string',
  column: 'string',
  value: 'value',
  unit: 'string',
  n: 'number',
  model: 'string',
  dtype: 'string',
  revision: 'string',
  command: 'string',
});

/** MemLens's published real-model numbers for one benchmark (data/reproduced/*.csv). */
export const publishedRowsQuery = defineQuery(
  'published numbers',
  (benchmark: string) => sql`SELECT "row", "column", value, unit, n, model, dtype, revision, command
  FROM reproduced WHERE benchmark = ${benchmark} AND model <> 'BM25'
  ORDER BY model, metric, k NULLS LAST, "column"`,
  (row, i): PublishedRow => {
    const r = publishedColumns(row, i);
    return {
      system: r.row,
      column: r.column,
      value: Number(r.value),
      unit: r.unit,
      n: r.n,
      model: r.model,
      dtype: r.dtype,
      revision: r.revision,
      command: r.command,
    };
  },
);

/** The table `publishedRowsQuery` reads: an older build, or a failed load, has none. */
export const PUBLISHED_TABLE = 'reproduced';
