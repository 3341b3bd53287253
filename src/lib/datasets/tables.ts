/**
 * Row types shared by the dataset adapters. Field names are snake_case because they become DuckDB
 * columns; every value is JSON-serialisable (null, never undefined).
 */

/** A benchmark's id in the registry (`DatasetId` in benchmarks/registry.ts narrows it). */
export type DatasetId = string;

export interface ConversationRow {
  dataset: DatasetId;
  conv_id: string;
  speaker_a: string;
  speaker_b: string;
  /** Number of sessions that have turns. */
  sessions: number;
  turns: number;
}

export interface SessionRow {
  dataset: DatasetId;
  conv_id: string;
  session: number;
  /** As printed in the source ("1:56 pm on 8 May, 2023"); '' when the source has none. */
  date: string;
  turn_count: number;
}

export interface TurnRow {
  dataset: DatasetId;
  conv_id: string;
  session: number;
  dia_id: string;
  /** 0-based position within the whole conversation. */
  turn_index: number;
  speaker: string;
  date: string;
  text: string;
  caption: string | null;
  img_url: string | null;
}

export type QueryStyle =
  'question' | 'dialog' | 'implicit' | 'counterfactual' | 'composed' | 'trigger';

export interface QueryRow {
  dataset: DatasetId;
  query_id: string;
  conv_id: string;
  style: QueryStyle;
  category: number | null;
  text: string;
  answer: string | null;
  /** dia_ids of the gold turns, within `conv_id`. */
  gold_ids: string[];
}

/** The tables every conversation-shaped dataset yields. */
export interface ConversationTables {
  conversations: ConversationRow[];
  sessions: SessionRow[];
  turns: TurnRow[];
}
