import { toJsonlObjects, type JsonlRecord } from './jsonl.ts';
import type { ConversationRow, QueryRow, SessionRow, TurnRow } from './tables.ts';
import {
  child,
  expectObject,
  getArray,
  getInteger,
  getObject,
  getOptionalString,
  getString,
  rootLoc,
  type JsonObject,
  type Loc,
} from './validate.ts';

export interface MemuseSessionRow extends SessionRow {
  /** The session the trigger occurs in (`input.current_session`), cut at the trigger turn. */
  is_current: boolean;
}

export interface MemuseTurnRow extends TurnRow {
  is_current_session: boolean;
}

export interface MemuseSubQuestionRow {
  instance_id: string;
  idx: number;
  question: string;
  answer: string;
}

export interface MemuseInstanceRow {
  instance_id: string;
  user_id: string;
  event_type: string;
  trigger_session_idx: number;
  ground_truth: string;
  judge_trigger: string | null;
  judge_expected: string | null;
}

export interface MemuseTables {
  conversations: ConversationRow[];
  sessions: MemuseSessionRow[];
  turns: MemuseTurnRow[];
  queries: QueryRow[];
  memuse_sub_questions: MemuseSubQuestionRow[];
  memuse_instances: MemuseInstanceRow[];
}

export function memuseDiaId(sessionIdx: number, turn: number): string {
  return `S${sessionIdx}:${turn}`;
}

interface SessionContext {
  convId: string;
  isCurrent: boolean;
  /** Turns already emitted for this conversation, so `turn_index` runs across sessions. */
  turnOffset: number;
}

function readSession(
  value: unknown,
  loc: Loc,
  ctx: SessionContext,
): { session: MemuseSessionRow; turns: MemuseTurnRow[] } {
  const obj = expectObject(value, loc);
  const sessionIdx = getInteger(obj, 'session_idx', loc);
  const date = getString(obj, 'date', loc);
  const turnsLoc = child(loc, 'turns');
  const turns = getArray(obj, 'turns', loc).map((t, i): MemuseTurnRow => {
    const turnLoc = child(turnsLoc, i);
    const turn = expectObject(t, turnLoc);
    return {
      dataset: 'memuse',
      conv_id: ctx.convId,
      session: sessionIdx,
      dia_id: memuseDiaId(sessionIdx, i),
      turn_index: ctx.turnOffset + i,
      speaker: getString(turn, 'role', turnLoc),
      date,
      text: getString(turn, 'content', turnLoc),
      caption: null,
      img_url: null,
      is_current_session: ctx.isCurrent,
    };
  });
  const session: MemuseSessionRow = {
    dataset: 'memuse',
    conv_id: ctx.convId,
    session: sessionIdx,
    date,
    turn_count: turns.length,
    is_current: ctx.isCurrent,
  };
  return { session, turns };
}

function readSubQuestions(
  target: JsonObject,
  loc: Loc,
  instanceId: string,
): MemuseSubQuestionRow[] {
  const listLoc = child(loc, 'sub_questions');
  return getArray(target, 'sub_questions', loc).map((value, idx) => {
    const itemLoc = child(listLoc, idx);
    const item = expectObject(value, itemLoc);
    return {
      instance_id: instanceId,
      idx,
      question: getString(item, 'question', itemLoc),
      answer: getString(item, 'answer', itemLoc),
    };
  });
}

function addInstance(tables: MemuseTables, obj: JsonObject, loc: Loc): void {
  const instanceId = getString(obj, 'instance_id', loc);
  const inputLoc = child(loc, 'input');
  const input = getObject(obj, 'input', loc);
  const targetLoc = child(loc, 'target');
  const target = getObject(obj, 'target', loc);
  const sessionsLoc = child(inputLoc, 'sessions');
  const sessionValues: [unknown, Loc, boolean][] = [
    ...getArray(input, 'sessions', inputLoc).map((s, i): [unknown, Loc, boolean] => [
      s,
      child(sessionsLoc, i),
      false,
    ]),
    [input.current_session, child(inputLoc, 'current_session'), true],
  ];
  const turns: MemuseTurnRow[] = [];
  const sessions = sessionValues.map(([value, sessionLoc, isCurrent]) => {
    const read = readSession(value, sessionLoc, {
      convId: instanceId,
      isCurrent,
      turnOffset: turns.length,
    });
    turns.push(...read.turns);
    return read.session;
  });
  const groundTruth = getString(target, 'ground_truth', targetLoc);
  tables.conversations.push({
    dataset: 'memuse',
    conv_id: instanceId,
    speaker_a: 'user',
    speaker_b: 'assistant',
    sessions: sessions.length,
    turns: turns.length,
  });
  tables.sessions.push(...sessions);
  tables.turns.push(...turns);
  tables.queries.push({
    dataset: 'memuse',
    query_id: instanceId,
    conv_id: instanceId,
    style: 'trigger',
    category: null,
    text: getString(input, 'trigger_quote', inputLoc),
    answer: groundTruth,
    gold_ids: [],
  });
  tables.memuse_sub_questions.push(...readSubQuestions(target, targetLoc, instanceId));
  tables.memuse_instances.push({
    instance_id: instanceId,
    user_id: getString(obj, 'user_id', loc),
    event_type: getString(obj, 'event_type', loc),
    trigger_session_idx: getInteger(obj, 'trigger_session_idx', loc),
    ground_truth: groundTruth,
    judge_trigger: getOptionalString(target, 'judge_trigger', targetLoc),
    judge_expected: getOptionalString(target, 'judge_expected', targetLoc),
  });
}

/**
 * MemUse `instances.*.jsonl` (text, or records from `parseJsonl`). Each instance is its own
 * conversation (conv_id = instance_id): all prior sessions plus the current session up to and
 * including the trigger turn. Gold is prose (`ground_truth`), so `gold_ids` is empty.
 */
export function memuseTables(
  input: string | readonly JsonlRecord[],
  file = 'instances.test.jsonl',
): MemuseTables {
  const tables: MemuseTables = {
    conversations: [],
    sessions: [],
    turns: [],
    queries: [],
    memuse_sub_questions: [],
    memuse_instances: [],
  };
  for (const { line, value } of toJsonlObjects(input, file))
    addInstance(tables, value, rootLoc(file, line));
  return tables;
}
