import type { Catalog } from '../db/catalog.ts';
import type { SqlRow } from '../db/engine.ts';
import {
  REPRODUCE_INMIND_TASKS_SQL,
  REPRODUCE_LME_BACKGROUND_SQL,
  REPRODUCE_PAPER_SQL,
} from '../db/queries.ts';
import { fetchSourceText, type FetchOptions } from '../data/fetch-source.ts';
import { sourceById } from '../data/sources.ts';
import { parseJsonDocument } from '../datasets/jsonl.ts';
import { locomoTables, type LocomoTables } from '../datasets/locomo.ts';
import { locomoPlusTables, type LocomoPlusTables } from '../datasets/locomo-plus.ts';
import {
  locomoConvComposedTables,
  locomoConvDialogTables,
  type LocomoConvComposedTables,
  type LocomoConvDialogTables,
} from '../datasets/locomo-conv.ts';
import type { InMindTask, InMindTurn } from './inmind.ts';
import { paperRows, type PaperRow } from './paper.ts';

/** Where a protocol's inputs come from: the app's DuckDB catalog and the site's data files. */
export interface InputSources {
  catalog: Catalog;
  fetch: FetchOptions;
}

function field(row: SqlRow, key: string): string {
  const v = row[key];
  if (typeof v !== 'string') throw new Error(`column ${key}: expected text, got ${typeof v}`);
  return v;
}

export async function loadInMindInputs(
  catalog: Catalog,
): Promise<{ tasks: InMindTask[]; background: InMindTurn[] }> {
  const [tasks, background] = await Promise.all([
    catalog.query(REPRODUCE_INMIND_TASKS_SQL),
    catalog.query(REPRODUCE_LME_BACKGROUND_SQL),
  ]);
  return {
    tasks: tasks.map((r) => ({
      task_id: Number(r.task_id),
      domain: field(r, 'domain'),
      user_message: field(r, 'user_message'),
      assistant_message: field(r, 'assistant_message'),
      naive_query: field(r, 'naive_query'),
      query: field(r, 'query'),
    })),
    background: background.map((r) => ({
      id: field(r, 'id'),
      raw_content: field(r, 'raw_content'),
      content: field(r, 'content'),
    })),
  };
}

export async function loadPaperRows(catalog: Catalog): Promise<PaperRow[]> {
  return paperRows(await catalog.query(REPRODUCE_PAPER_SQL));
}

async function jsonSource(id: string, opts: FetchOptions): Promise<{ doc: unknown; file: string }> {
  const fetched = await fetchSourceText(sourceById(id), opts);
  const file = `${fetched.source.dataset}/${fetched.source.file}`;
  return { doc: parseJsonDocument(fetched.text, file), file };
}

/** Parsed files are kept per source id (and fetch base), so switching views refetches nothing. */
const parsed = new Map<string, Promise<unknown>>();

function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let hit = parsed.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    parsed.set(key, hit);
    hit.catch(() => parsed.delete(key));
  }
  return hit;
}

export function loadLocomo(opts: FetchOptions): Promise<LocomoTables> {
  return once(`locomo|${opts.siteBase}`, async () => {
    const { doc, file } = await jsonSource('locomo', opts);
    return locomoTables(doc, file);
  });
}

export function loadLocomoPlus(opts: FetchOptions): Promise<LocomoPlusTables> {
  return once(`locomo-plus|${opts.siteBase}`, async () => {
    const { doc, file } = await jsonSource('locomo-plus', opts);
    return locomoPlusTables(doc, file);
  });
}

export const DIALOG_FILES = { sample0: 'locomo-conv-dialog-sample0', full: 'locomo-conv-dialog' };
export type DialogFile = keyof typeof DIALOG_FILES;
export const COMPOSED_FILES = {
  multimem: 'locomo-conv-multimem',
  'multimem-full': 'locomo-conv-multimem-full',
};
export type ComposedFile = keyof typeof COMPOSED_FILES;

export function loadDialog(opts: FetchOptions, which: DialogFile): Promise<LocomoConvDialogTables> {
  return once(`${which}|${opts.siteBase}`, async () => {
    const { doc, file } = await jsonSource(DIALOG_FILES[which], opts);
    return locomoConvDialogTables(doc, file);
  });
}

export function loadComposed(
  opts: FetchOptions,
  which: ComposedFile,
): Promise<LocomoConvComposedTables> {
  return once(`${which}|${opts.siteBase}`, async () => {
    const { doc, file } = await jsonSource(COMPOSED_FILES[which], opts);
    return locomoConvComposedTables(doc, file);
  });
}
