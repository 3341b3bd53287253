import type { QueryRow, TurnRow } from './tables.ts';
import * as check from './validate.ts';

/** Retrievers the authors released scores and ranks for. */
export const LOCOMO_PLUS_SCORERS = ['mpnet', 'bge', 'bm25', 'combined'] as const;

export interface LocomoPlusItemRow {
  /** `lp-<index>`: the release has no id of its own, so the 0-based position in the file is used. */
  item_id: string;
  item_index: number;
  relation_type: string;
  time_gap: string;
  model_name: string | null;
  cue_dialogue: string;
  trigger_query: string;
  cue_turns: number;
  score_mpnet: number | null;
  score_bge: number | null;
  score_bm25: number | null;
  score_combined: number | null;
  rank_mpnet: number | null;
  rank_bge: number | null;
  rank_bm25: number | null;
  rank_combined: number | null;
  final_similarity_score: number | null;
}

export interface LocomoPlusTables {
  locomo_plus_items: LocomoPlusItemRow[];
  queries: QueryRow[];
  turns: TurnRow[];
}

export interface SpokenLine {
  speaker: string;
  text: string;
}

const SPEAKER_PREFIX = /^([A-Z][A-Za-z0-9_]{0,19}): (.*)$/s;

/** "A: text" → {speaker: 'A', text}; a line without a speaker prefix keeps speaker ''. */
export function splitSpeaker(line: string): SpokenLine {
  const match = SPEAKER_PREFIX.exec(line);
  return match ? { speaker: match[1], text: match[2] } : { speaker: '', text: line };
}

export function cueDiaId(turn: number): string {
  return `cue:${turn + 1}`;
}

function cueLines(dialogue: string): string[] {
  return dialogue.split('\n').filter((line) => line.trim() !== '');
}

function scorerFields(
  item: check.JsonObject,
  loc: check.Loc,
  key: 'scores' | 'ranks',
): (number | null)[] {
  const values = check.getOptionalObject(item, key, loc);
  if (values === null) return LOCOMO_PLUS_SCORERS.map(() => null);
  const valuesLoc = check.child(loc, key);
  return LOCOMO_PLUS_SCORERS.map((name) =>
    key === 'ranks'
      ? check.getOptionalInteger(values, name, valuesLoc)
      : check.getOptionalNumber(values, name, valuesLoc),
  );
}

function readItem(item: check.JsonObject, loc: check.Loc, index: number): LocomoPlusItemRow {
  const [sMpnet, sBge, sBm25, sCombined] = scorerFields(item, loc, 'scores');
  const [rMpnet, rBge, rBm25, rCombined] = scorerFields(item, loc, 'ranks');
  const cueDialogue = check.getString(item, 'cue_dialogue', loc);
  return {
    item_id: `lp-${index}`,
    item_index: index,
    relation_type: check.getString(item, 'relation_type', loc),
    time_gap: check.getString(item, 'time_gap', loc),
    model_name: check.getOptionalString(item, 'model_name', loc),
    cue_dialogue: cueDialogue,
    trigger_query: check.getString(item, 'trigger_query', loc),
    cue_turns: cueLines(cueDialogue).length,
    score_mpnet: sMpnet,
    score_bge: sBge,
    score_bm25: sBm25,
    score_combined: sCombined,
    rank_mpnet: rMpnet,
    rank_bge: rBge,
    rank_bm25: rBm25,
    rank_combined: rCombined,
    final_similarity_score: check.getOptionalNumber(item, 'final_similarity_score', loc),
  };
}

function cueTurns(row: LocomoPlusItemRow): TurnRow[] {
  return cueLines(row.cue_dialogue).map((line, i) => ({
    dataset: 'locomo-plus',
    conv_id: row.item_id,
    session: 1,
    dia_id: cueDiaId(i),
    turn_index: i,
    ...splitSpeaker(line),
    date: '',
    caption: null,
    img_url: null,
  }));
}

function triggerQuery(row: LocomoPlusItemRow, turns: readonly TurnRow[]): QueryRow {
  return {
    dataset: 'locomo-plus',
    query_id: row.item_id,
    conv_id: row.item_id,
    style: 'trigger',
    category: null,
    text: splitSpeaker(row.trigger_query).text,
    answer: null,
    gold_ids: turns.map((t) => t.dia_id),
  };
}

/**
 * LoCoMo-Plus (`locomo_plus.json`, already parsed). Each item becomes its own one-session
 * conversation of cue turns; the trigger (speaker prefix removed) is the query and all cue turns
 * are gold. Raw `cue_dialogue` / `trigger_query` stay untouched in `locomo_plus_items`.
 */
export function locomoPlusTables(doc: unknown, file = 'locomo_plus.json'): LocomoPlusTables {
  const root = check.rootLoc(file);
  const tables: LocomoPlusTables = { locomo_plus_items: [], queries: [], turns: [] };
  check.expectArray(doc, root).forEach((value, i) => {
    const loc = check.child(root, i);
    const row = readItem(check.expectObject(value, loc), loc, i);
    const turns = cueTurns(row);
    tables.locomo_plus_items.push(row);
    tables.turns.push(...turns);
    tables.queries.push(triggerQuery(row, turns));
  });
  return tables;
}
