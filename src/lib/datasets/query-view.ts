import { locomoCategoryLabel } from './locomo-categories.ts';
import type { SqlRow } from '../db/engine.ts';

export interface QueryView {
  dataset: string;
  query_id: string;
  conv_id: string;
  style: string;
  category: number | null;
  text: string;
  answer: string | null;
  gold_ids: string[];
}

export interface GoldTurn {
  dia_id: string;
  speaker: string | null;
  text: string | null;
  session: number | null;
}

export function queryFromRow(row: SqlRow): QueryView {
  return {
    dataset: String(row.dataset),
    query_id: String(row.query_id),
    conv_id: String(row.conv_id),
    style: String(row.style),
    category: row.category === null || row.category === undefined ? null : Number(row.category),
    text: String(row.text ?? ''),
    answer: row.answer === null || row.answer === undefined ? null : String(row.answer),
    gold_ids: Array.isArray(row.gold_ids) ? row.gold_ids.map(String) : [],
  };
}

export function queryKey(q: { dataset: string; query_id: string }): string {
  return `${q.dataset}\u0000${q.query_id}`;
}

/** Gold turns per query key, from `goldTurnsQuery` rows. */
export function groupGold(
  rows: readonly (GoldTurn & { dataset: string; query_id: string })[],
): Map<string, GoldTurn[]> {
  const out = new Map<string, GoldTurn[]>();
  for (const r of rows) {
    const key = queryKey(r);
    const list = out.get(key) ?? [];
    list.push({ dia_id: r.dia_id, speaker: r.speaker, text: r.text, session: r.session });
    out.set(key, list);
  }
  return out;
}

/**
 * What a query's gold list says when it holds no turn: that it has none only once the gold
 * lookup for the rows on screen has answered, never while it is on its way.
 */
export function emptyGoldNote(lookup: { loading: boolean; stale: boolean }): string {
  return lookup.loading || lookup.stale
    ? 'Looking up the gold evidence…'
    : 'No gold evidence listed.';
}

/** Only LoCoMo-derived rows carry a category: its number with LoCoMo's name for it. */
export function categoryLabel(category: number | null): string {
  return category === null ? 'no category' : locomoCategoryLabel(category);
}
