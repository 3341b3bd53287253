import { toJsonlObjects, type JsonlRecord } from './jsonl.ts';
import * as check from './validate.ts';

export interface InmindTaskRow {
  task_id: number;
  domain: string;
  entity_1: string | null;
  entity_2: string | null;
  relation: string | null;
  explanation: string;
  user_message: string;
  assistant_message: string;
  naive_query: string;
  query: string;
  source_url: string | null;
  source_id: string | null;
  annotation_status: string | null;
  generation_model: string | null;
  generation_batch: string | null;
  source_dataset: string;
  source_task_id: number;
  original_task_id: number;
}

export interface LmeBackgroundRow {
  id: string;
  /** LongMemEval session id, parsed from `session-<sid>-turn-<k>`. */
  session_id: string;
  turn_index: number;
  /** 0-based order of the session's first appearance in the file. */
  session_index: number;
  role: string;
  /** `raw_content` without its `\n---TIMESTAMP: ...` suffix. */
  content: string;
  timestamp: string | null;
  raw_content: string;
}

export interface InmindManifestRow {
  name: string | null;
  file: string | null;
  sha256: string | null;
  turns: number;
  sessions: number;
  user_turns: number;
  assistant_turns: number;
  /** 0-based index of the background session after which the task's target turn is injected. */
  injection_session_index: number;
  injection_session_number: number;
  phase_a_sessions: number | null;
  prefix_user_turns: number | null;
  injection_user_turn_locator: number | null;
  background_user_turns_before_target: number | null;
  post_injection_sessions: number | null;
  source_project: string | null;
  source_repository: string | null;
  source_paper: string | null;
  source_dataset: string | null;
  source_question_id: string | null;
  source_upstream_commit: string | null;
  source_license: string | null;
}

function readTask(task: check.JsonObject, loc: check.Loc): InmindTaskRow {
  const provLoc = check.child(loc, 'provenance');
  const provenance = check.expectObject(task.provenance, provLoc);
  const knowledge = check.getOptionalObject(provenance, 'knowledge_source', provLoc) ?? {};
  const knowledgeLoc = check.child(provLoc, 'knowledge_source');
  return {
    task_id: check.getInteger(task, 'task_id', loc),
    domain: check.getString(task, 'domain', loc),
    entity_1: check.getOptionalString(task, 'entity_1', loc),
    entity_2: check.getOptionalString(task, 'entity_2', loc),
    relation: check.getOptionalString(task, 'relation', loc),
    explanation: check.getString(task, 'explanation', loc),
    user_message: check.getString(task, 'user_message', loc),
    assistant_message: check.getString(task, 'assistant_message', loc),
    naive_query: check.getString(task, 'naive_query', loc),
    query: check.getString(task, 'query', loc),
    source_url: check.getOptionalString(knowledge, 'url', knowledgeLoc),
    source_id: check.getOptionalString(knowledge, 'source_id', knowledgeLoc),
    annotation_status: check.getOptionalString(provenance, 'annotation_status', provLoc),
    generation_model: check.getOptionalString(provenance, 'generation_model', provLoc),
    generation_batch: check.getOptionalString(provenance, 'generation_batch', provLoc),
    source_dataset: check.getString(provenance, 'source_dataset', provLoc),
    source_task_id: check.getInteger(provenance, 'source_task_id', provLoc),
    original_task_id: check.getInteger(provenance, 'original_task_id', provLoc),
  };
}

/** InMind tasks (`inmind_en.jsonl`: text, or records from `parseJsonl`). */
export function inmindTaskRows(
  input: string | readonly JsonlRecord[],
  file = 'inmind_en.jsonl',
): InmindTaskRow[] {
  return toJsonlObjects(input, file).map(({ line, value }) =>
    readTask(value, check.rootLoc(file, line)),
  );
}

const BACKGROUND_ID = /^session-(.+)-turn-(\d+)$/;
const TIMESTAMP_SUFFIX = /\n---TIMESTAMP: ([^\n]*)$/;

export function splitTimestamp(raw: string): { content: string; timestamp: string | null } {
  const match = TIMESTAMP_SUFFIX.exec(raw);
  if (!match) return { content: raw, timestamp: null };
  return { content: raw.slice(0, match.index), timestamp: match[1] };
}

function readBackground(
  turn: check.JsonObject,
  loc: check.Loc,
  sessionOrder: Map<string, number>,
): LmeBackgroundRow {
  const id = check.getString(turn, 'id', loc);
  const match = BACKGROUND_ID.exec(id);
  if (!match) check.fail(check.child(loc, 'id'), 'an id of the form "session-<sid>-turn-<k>"', id);
  const sessionId = match[1];
  if (!sessionOrder.has(sessionId)) sessionOrder.set(sessionId, sessionOrder.size);
  const raw = check.getString(turn, 'content', loc);
  return {
    id,
    session_id: sessionId,
    turn_index: Number(match[2]),
    session_index: sessionOrder.get(sessionId) ?? 0,
    role: check.getString(turn, 'role', loc),
    ...splitTimestamp(raw),
    raw_content: raw,
  };
}

/** The fixed LongMemEval-S background trace (`lme_s_background.jsonl`). */
export function lmeBackgroundRows(
  input: string | readonly JsonlRecord[],
  file = 'lme_s_background.jsonl',
): LmeBackgroundRow[] {
  const sessionOrder = new Map<string, number>();
  return toJsonlObjects(input, file).map(({ line, value }) =>
    readBackground(value, check.rootLoc(file, line), sessionOrder),
  );
}

/** `manifest.json` of the background trace (already parsed), as one row. */
export function inmindManifestRow(doc: unknown, file = 'manifest.json'): InmindManifestRow {
  const loc = check.rootLoc(file);
  const manifest = check.expectObject(doc, loc);
  const source = check.getOptionalObject(manifest, 'source', loc) ?? {};
  const sourceLoc = check.child(loc, 'source');
  const sourceText = (key: string) => check.getOptionalString(source, key, sourceLoc);
  const count = (key: string) => check.getOptionalInteger(manifest, key, loc);
  return {
    name: check.getOptionalString(manifest, 'name', loc),
    file: check.getOptionalString(manifest, 'file', loc),
    sha256: check.getOptionalString(manifest, 'sha256', loc),
    turns: check.getInteger(manifest, 'turns', loc),
    sessions: check.getInteger(manifest, 'sessions', loc),
    user_turns: check.getInteger(manifest, 'user_turns', loc),
    assistant_turns: check.getInteger(manifest, 'assistant_turns', loc),
    injection_session_index: check.getInteger(manifest, 'injection_session_index', loc),
    injection_session_number: check.getInteger(manifest, 'injection_session_number', loc),
    phase_a_sessions: count('phase_a_sessions'),
    prefix_user_turns: count('prefix_user_turns'),
    injection_user_turn_locator: count('injection_user_turn_locator'),
    background_user_turns_before_target: count('background_user_turns_before_target'),
    post_injection_sessions: count('post_injection_sessions'),
    source_project: sourceText('project'),
    source_repository: sourceText('repository'),
    source_paper: sourceText('paper'),
    source_dataset: sourceText('dataset'),
    source_question_id: sourceText('question_id'),
    source_upstream_commit: sourceText('upstream_commit'),
    source_license: sourceText('license'),
  };
}

/** The turns in the order the app reads them (`ORDER BY session_index, turn_index, id`). */
export function inPageOrder<T extends { session_index: number; turn_index: number; id: string }>(
  turns: readonly T[],
): T[] {
  return [...turns].sort(
    (a, b) =>
      a.session_index - b.session_index ||
      a.turn_index - b.turn_index ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
