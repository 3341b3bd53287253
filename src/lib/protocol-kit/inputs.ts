import type { Catalog } from '../db/catalog.ts';
import type { SqlRow, SqlValue } from '../db/engine.ts';
import type { SqlText } from '../query/sql.ts';
import {
  REPRODUCE_INMIND_TASKS_SQL,
  REPRODUCE_LME_BACKGROUND_SQL,
  REPRODUCE_LOCOMO_PLUS_ITEMS_SQL,
  REPRODUCE_LOCOMO_PLUS_RELEASE_SQL,
  reproducePaperSql,
  reproducePublishedSql,
  reproduceQueriesSql,
  reproduceTurnsSql,
} from '../db/queries.ts';
import type { DatasetId, QueryRow, QueryStyle, TurnRow } from '../datasets/tables.ts';
import type { InMindTask, InMindTurn } from './inmind.ts';
import type { ReleasePair } from './locomo-plus-release.ts';
import { paperRows, type PaperRow } from './paper.ts';

/**
 * Protocols read the app's DuckDB catalog: `inmind_tasks` / `lme_background` (core load) and
 * the shared `turns` / `queries` / `locomo_plus_items` tables (benchmark load).
 */
export class MissingTablesError extends Error {
  constructor(readonly tables: string[]) {
    super(`not loaded yet: ${tables.join(', ')}`);
    this.name = 'MissingTablesError';
  }
}

export async function requireTables(catalog: Catalog, tables: readonly string[]): Promise<void> {
  const present = new Set(await catalog.tableNames());
  const missing = tables.filter((t) => !present.has(t));
  if (missing.length > 0) throw new MissingTablesError(missing);
}

function text(row: SqlRow, key: string): string {
  const v = row[key];
  if (typeof v !== 'string') throw new Error(`column ${key}: expected text, got ${typeof v}`);
  return v;
}

function nullableText(row: SqlRow, key: string): string | null {
  return row[key] === null || row[key] === undefined ? null : text(row, key);
}

function int(row: SqlRow, key: string): number {
  const v = Number(row[key]);
  if (!Number.isInteger(v)) throw new Error(`column ${key}: expected an integer`);
  return v;
}

const STYLES: readonly QueryStyle[] = [
  'question',
  'dialog',
  'implicit',
  'counterfactual',
  'composed',
  'trigger',
];

function style(row: SqlRow): QueryStyle {
  const value = text(row, 'style');
  const hit = STYLES.find((s) => s === value);
  if (hit === undefined) throw new Error(`column style: unknown style "${value}"`);
  return hit;
}

function textList(value: SqlValue | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** A row of `inmind_tasks` with the columns every InMind protocol (and the playground) reads. */
export function inmindTaskFromRow(r: SqlRow): InMindTask {
  return {
    task_id: int(r, 'task_id'),
    domain: text(r, 'domain'),
    user_message: text(r, 'user_message'),
    assistant_message: text(r, 'assistant_message'),
    naive_query: text(r, 'naive_query'),
    query: text(r, 'query'),
  };
}

export async function loadInMindInputs(
  catalog: Catalog,
): Promise<{ tasks: InMindTask[]; background: InMindTurn[] }> {
  await requireTables(catalog, ['inmind_tasks', 'lme_background']);
  const [tasks, background] = await Promise.all([
    catalog.query(REPRODUCE_INMIND_TASKS_SQL),
    catalog.query(REPRODUCE_LME_BACKGROUND_SQL),
  ]);
  return {
    tasks: tasks.map(inmindTaskFromRow),
    background: background.map((r) => ({
      id: text(r, 'id'),
      raw_content: text(r, 'raw_content'),
      content: text(r, 'content'),
    })),
  };
}

export async function loadTurns(catalog: Catalog, dataset: DatasetId): Promise<TurnRow[]> {
  await requireTables(catalog, ['turns']);
  return (await run(catalog, reproduceTurnsSql(dataset))).map((r) => ({
    dataset,
    conv_id: text(r, 'conv_id'),
    session: int(r, 'session'),
    dia_id: text(r, 'dia_id'),
    turn_index: int(r, 'turn_index'),
    speaker: text(r, 'speaker'),
    date: text(r, 'date'),
    text: text(r, 'text'),
    caption: nullableText(r, 'caption'),
    img_url: null,
  }));
}

export async function loadQueries(catalog: Catalog, dataset: DatasetId): Promise<QueryRow[]> {
  await requireTables(catalog, ['queries']);
  return (await run(catalog, reproduceQueriesSql(dataset))).map((r) => ({
    dataset,
    query_id: text(r, 'query_id'),
    conv_id: text(r, 'conv_id'),
    style: style(r),
    category: r.category === null ? null : int(r, 'category'),
    text: text(r, 'text'),
    answer: null,
    gold_ids: textList(r.gold_ids),
  }));
}

export interface LocomoPlusItem {
  item_id: string;
  item_index: number;
  relation_type: string;
}

export async function loadLocomoPlusItems(catalog: Catalog): Promise<LocomoPlusItem[]> {
  await requireTables(catalog, ['locomo_plus_items']);
  return (await catalog.query(REPRODUCE_LOCOMO_PLUS_ITEMS_SQL)).map((r) => ({
    item_id: text(r, 'item_id'),
    item_index: int(r, 'item_index'),
    relation_type: text(r, 'relation_type'),
  }));
}

function nullableNumber(row: SqlRow, key: string): number | null {
  const v = row[key];
  if (v === null || v === undefined) return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`column ${key}: expected a number`);
  return n;
}

/** LoCoMo-Plus records as the release scored them (release mode). */
export async function loadLocomoPlusRelease(catalog: Catalog): Promise<ReleasePair[]> {
  await requireTables(catalog, ['locomo_plus_items']);
  return (await catalog.query(REPRODUCE_LOCOMO_PLUS_RELEASE_SQL)).map((r) => ({
    item_id: text(r, 'item_id'),
    item_index: int(r, 'item_index'),
    relation_type: text(r, 'relation_type'),
    cue_dialogue: text(r, 'cue_dialogue'),
    trigger_query: text(r, 'trigger_query'),
    released: nullableNumber(r, 'score_bge'),
    releasedBm25Rank: nullableNumber(r, 'rank_bm25'),
  }));
}

/** The paper rows `where` selects (the registry's `paperRowsWhere`). */
export async function loadPaperRows(catalog: Catalog, where: string): Promise<PaperRow[]> {
  await requireTables(catalog, ['results']);
  return paperRows(await catalog.query(reproducePaperSql(where)));
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

/** Empty when the site has no `reproduced` table (an older build, a failed load). */
export async function loadPublishedRows(
  catalog: Catalog,
  benchmark: string,
): Promise<PublishedRow[]> {
  if (!(await catalog.tableNames()).includes('reproduced')) return [];
  return (await run(catalog, reproducePublishedSql(benchmark))).map((r) => ({
    system: text(r, 'row'),
    column: text(r, 'column'),
    value: Number(r.value),
    unit: text(r, 'unit'),
    n: int(r, 'n'),
    model: text(r, 'model'),
    dtype: text(r, 'dtype'),
    revision: text(r, 'revision'),
    command: text(r, 'command'),
  }));
}

function run(catalog: Pick<Catalog, 'query'>, text: SqlText): Promise<SqlRow[]> {
  return catalog.query(text.sql, text.params);
}
