import type { SqlRow } from '../db/engine.ts';
import type { TurnRow } from './tables.ts';
import { estimateTurnHeight, SESSION_HEADER_HEIGHT } from './turn-window.ts';

/** A turn as the viewer shows it: a `turns` row without the keys of its conversation. */
export type TurnView = Omit<TurnRow, 'dataset' | 'conv_id'>;

export type ViewItem =
  | { kind: 'session'; key: string; session: number; date: string; turns: number }
  | { kind: 'turn'; key: string; turn: TurnView };

const optionalText = (v: unknown): string | null =>
  v === null || v === undefined ? null : String(v);

export function turnFromRow(row: SqlRow): TurnView {
  return {
    session: Number(row.session),
    dia_id: String(row.dia_id),
    turn_index: Number(row.turn_index),
    speaker: String(row.speaker ?? ''),
    date: String(row.date ?? ''),
    text: String(row.text ?? ''),
    caption: optionalText(row.caption),
    img_url: optionalText(row.img_url),
  };
}

/** Turns in order, with a header row before each session. */
export function conversationItems(turns: readonly TurnView[]): ViewItem[] {
  const counts = new Map<number, number>();
  for (const t of turns) counts.set(t.session, (counts.get(t.session) ?? 0) + 1);
  const items: ViewItem[] = [];
  let session: number | null = null;
  for (const turn of turns) {
    if (turn.session !== session) {
      session = turn.session;
      items.push({
        kind: 'session',
        key: `s${session}`,
        session,
        date: turn.date,
        turns: counts.get(session) ?? 0,
      });
    }
    items.push({ kind: 'turn', key: `t${turn.turn_index}`, turn });
  }
  return items;
}

export function estimateItemHeight(item: ViewItem, charsPerLine: number): number {
  if (item.kind === 'session') return SESSION_HEADER_HEIGHT;
  const extra = (item.turn.caption ? 1 : 0) + (item.turn.img_url ? 1 : 0);
  return estimateTurnHeight(item.turn.text.length, extra, charsPerLine);
}

export function itemIndexOfTurn(items: readonly ViewItem[], diaId: string): number {
  return items.findIndex((i) => i.kind === 'turn' && i.turn.dia_id === diaId);
}

/** Hash link to a turn in context, for any drill-down. */
export function turnLink(
  dataset: string,
  conv: string,
  turn: string,
  query: string | null = null,
): string {
  const params = new URLSearchParams({ conv, dataset, ...(query ? { query } : {}), turn });
  return `#/benchmarks?${params.toString()}`;
}

export interface DatasetOption {
  dataset: string;
  label: string;
}

export interface ConversationOption {
  conv_id: string;
  turns: number;
  sessions: number;
}
