import { toJsonlObjects, type JsonlRecord } from './jsonl.ts';
import type { ConversationRow, QueryRow, SessionRow, TurnRow } from './tables.ts';
import * as check from './validate.ts';

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
  loc: check.Loc,
  ctx: SessionContext,
): { session: MemuseSessionRow; turns: MemuseTurnRow[] } {
  const obj = check.expectObject(value, loc);
  const sessionIdx = check.getInteger(obj, 'session_idx', loc);
  const date = check.getString(obj, 'date', loc);
  const turnsLoc = check.child(loc, 'turns');
  const turns = check.getArray(obj, 'turns', loc).map((t, i): MemuseTurnRow => {
    const turnLoc = check.child(turnsLoc, i);
    const turn = check.expectObject(t, turnLoc);
    return {
      dataset: 'memuse',
      conv_id: ctx.convId,
      session: sessionIdx,
      dia_id: memuseDiaId(sessionIdx, i),
      turn_index: ctx.turnOffset + i,
      speaker: check.getString(turn, 'role', turnLoc),
      date,
      text: check.getString(turn, 'content', turnLoc),
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
  target: check.JsonObject,
  loc: check.Loc,
  instanceId: string,
): MemuseSubQuestionRow[] {
  const listLoc = check.child(loc, 'sub_questions');
  return check.getArray(target, 'sub_questions', loc).map((value, idx) => {
    const itemLoc = check.child(listLoc, idx);
    const item = check.expectObject(value, itemLoc);
    return {
      instance_id: instanceId,
      idx,
      question: check.getString(item, 'question', itemLoc),
      answer: check.getString(item, 'answer', itemLoc),
    };
  });
}

function addInstance(tables: MemuseTables, obj: check.JsonObject, loc: check.Loc): void {
  const instanceId = check.getString(obj, 'instance_id', loc);
  const inputLoc = check.child(loc, 'input');
  const input = check.getObject(obj, 'input', loc);
  const targetLoc = check.child(loc, 'target');
  const target = check.getObject(obj, 'target', loc);
  const sessionsLoc = check.child(inputLoc, 'sessions');
  const sessionValues: [unknown, check.Loc, boolean][] = [
    ...check
      .getArray(input, 'sessions', inputLoc)
      .map((s, i): [unknown, check.Loc, boolean] => [s, check.child(sessionsLoc, i), false]),
    [input.current_session, check.child(inputLoc, 'current_session'), true],
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
  const groundTruth = check.getString(target, 'ground_truth', targetLoc);
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
    text: check.getString(input, 'trigger_quote', inputLoc),
    answer: groundTruth,
    gold_ids: [],
  });
  tables.memuse_sub_questions.push(...readSubQuestions(target, targetLoc, instanceId));
  tables.memuse_instances.push({
    instance_id: instanceId,
    user_id: check.getString(obj, 'user_id', loc),
    event_type: check.getString(obj, 'event_type', loc),
    trigger_session_idx: check.getInteger(obj, 'trigger_session_idx', loc),
    ground_truth: groundTruth,
    judge_trigger: check.getOptionalString(target, 'judge_trigger', targetLoc),
    judge_expected: check.getOptionalString(target, 'judge_expected', targetLoc),
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
    addInstance(tables, value, check.rootLoc(file, line));
  return tables;
}
