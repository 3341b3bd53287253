import type {
  ConversationRow,
  ConversationTables,
  DatasetId,
  QueryRow,
  SessionRow,
  TurnRow,
} from './tables.ts';
import * as check from './validate.ts';

export interface LocomoQueryRow extends QueryRow {
  /** Position in the sample's `qa` list. */
  qa_index: number;
  adversarial_answer: string | null;
  /** Evidence tokens that are not `D<session>:<turn>` ids (e.g. "D", "D:11:26"). */
  malformed_evidence: string[];
}

export interface LocomoObservationRow {
  conv_id: string;
  session: number;
  speaker: string;
  text: string;
  evidence_ids: string[];
  malformed_evidence: string[];
}

export interface LocomoSessionSummaryRow {
  conv_id: string;
  session: number;
  summary: string;
}

export interface LocomoTables extends ConversationTables {
  queries: LocomoQueryRow[];
  locomo_observations: LocomoObservationRow[];
  locomo_session_summaries: LocomoSessionSummaryRow[];
}

export interface LocomoSample {
  sample: check.JsonObject;
  loc: check.Loc;
  convId: string;
}

export interface EvidenceIds {
  ids: string[];
  malformed: string[];
}

const DIA_ID = /^D\d+:\d+$/;
const SESSION_KEY = /^session_(\d+)$/;
const OBSERVATION_KEY = /^session_(\d+)_observation$/;
const SUMMARY_KEY = /^session_(\d+)_summary$/;

/**
 * Splits evidence strings on `;`, `,` and whitespace ("D8:6; D9:17" is one string in the release),
 * keeps `D<session>:<turn>` ids once each, and returns every other token as malformed.
 */
export function normalizeEvidence(values: readonly string[]): EvidenceIds {
  const ids: string[] = [];
  const malformed: string[] = [];
  for (const token of values.flatMap((v) => v.split(/[;,\s]+/))) {
    if (token === '') continue;
    if (!DIA_ID.test(token)) malformed.push(token);
    else if (!ids.includes(token)) ids.push(token);
  }
  return { ids, malformed };
}

export function locomoSamples(doc: unknown, file: string): LocomoSample[] {
  const root = check.rootLoc(file);
  return check.expectArray(doc, root).map((value, i) => {
    const loc = check.child(root, i);
    const sample = check.expectObject(value, loc);
    return { sample, loc, convId: check.getString(sample, 'sample_id', loc) };
  });
}

/** Session numbers that have a `session_<n>` list, ascending. */
function sessionNumbers(conversation: check.JsonObject): number[] {
  const numbers: number[] = [];
  for (const key of Object.keys(conversation)) {
    const match = SESSION_KEY.exec(key);
    if (match) numbers.push(Number(match[1]));
  }
  return numbers.sort((a, b) => a - b);
}

function imageUrl(turn: check.JsonObject, loc: check.Loc): string | null {
  const value = turn.img_url;
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  const urls = check.expectArray(value, check.child(loc, 'img_url'));
  return urls.length === 0
    ? null
    : check.expectString(urls[0], check.child(check.child(loc, 'img_url'), 0));
}

interface TurnContext {
  dataset: DatasetId;
  convId: string;
  session: number;
  date: string;
}

function readTurn(value: unknown, loc: check.Loc, ctx: TurnContext, turnIndex: number): TurnRow {
  const turn = check.expectObject(value, loc);
  return {
    dataset: ctx.dataset,
    conv_id: ctx.convId,
    session: ctx.session,
    dia_id: check.getString(turn, 'dia_id', loc),
    turn_index: turnIndex,
    speaker: check.getString(turn, 'speaker', loc),
    date: ctx.date,
    text: check.getString(turn, 'text', loc),
    caption: check.getOptionalString(turn, 'blip_caption', loc),
    img_url: imageUrl(turn, loc),
  };
}

/** Conversation, session and turn rows of one LoCoMo-shaped sample. */
export function locomoConversation(
  { sample, loc, convId }: LocomoSample,
  dataset: DatasetId,
): ConversationTables {
  const convLoc = check.child(loc, 'conversation');
  const conversation = check.expectObject(sample.conversation, convLoc);
  const sessions: SessionRow[] = [];
  const turns: TurnRow[] = [];
  for (const session of sessionNumbers(conversation)) {
    const key = `session_${session}`;
    const date = check.getOptionalString(conversation, `${key}_date_time`, convLoc) ?? '';
    const ctx: TurnContext = { dataset, convId, session, date };
    const list = check.getArray(conversation, key, convLoc);
    list.forEach((t, i) =>
      turns.push(readTurn(t, check.child(check.child(convLoc, key), i), ctx, turns.length)),
    );
    sessions.push({ dataset, conv_id: convId, session, date, turn_count: list.length });
  }
  const row: ConversationRow = {
    dataset,
    conv_id: convId,
    speaker_a: check.getString(conversation, 'speaker_a', convLoc),
    speaker_b: check.getString(conversation, 'speaker_b', convLoc),
    sessions: sessions.length,
    turns: turns.length,
  };
  return { conversations: [row], sessions, turns };
}

/** LoCoMo answers are mostly strings but sometimes bare numbers (e.g. 2022). */
export function answerText(obj: check.JsonObject, key: string, loc: check.Loc): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') check.fail(check.child(loc, key), 'a string or number', value);
  return value;
}

export function locomoQueryId(convId: string, qaIndex: number): string {
  return `${convId}:q${qaIndex}`;
}

function readQuery(
  value: unknown,
  loc: check.Loc,
  convId: string,
  qaIndex: number,
): LocomoQueryRow {
  const qa = check.expectObject(value, loc);
  const evidence = normalizeEvidence(check.getStringArray(qa, 'evidence', loc));
  return {
    dataset: 'locomo',
    query_id: locomoQueryId(convId, qaIndex),
    conv_id: convId,
    style: 'question',
    category: check.getInteger(qa, 'category', loc),
    text: check.getString(qa, 'question', loc),
    answer: answerText(qa, 'answer', loc),
    gold_ids: evidence.ids,
    qa_index: qaIndex,
    adversarial_answer: answerText(qa, 'adversarial_answer', loc),
    malformed_evidence: evidence.malformed,
  };
}

function observationEvidence(value: unknown, loc: check.Loc): EvidenceIds {
  if (typeof value === 'string') return normalizeEvidence([value]);
  if (!Array.isArray(value)) check.fail(loc, 'a dia_id string or an array of them', value);
  return normalizeEvidence(value.map((v, i) => check.expectString(v, check.child(loc, i))));
}

function readObservation(
  value: unknown,
  loc: check.Loc,
  convId: string,
  session: number,
  speaker: string,
): LocomoObservationRow {
  const pair = check.expectArray(value, loc);
  if (pair.length !== 2) check.fail(loc, 'a [text, evidence] pair', value);
  const evidence = observationEvidence(pair[1], check.child(loc, 1));
  return {
    conv_id: convId,
    session,
    speaker,
    text: check.expectString(pair[0], check.child(loc, 0)),
    evidence_ids: evidence.ids,
    malformed_evidence: evidence.malformed,
  };
}

function observations({ sample, loc, convId }: LocomoSample): LocomoObservationRow[] {
  const obsLoc = check.child(loc, 'observation');
  const all = check.getOptionalObject(sample, 'observation', loc) ?? {};
  const rows: LocomoObservationRow[] = [];
  for (const [key, bySpeaker] of Object.entries(all)) {
    const match = OBSERVATION_KEY.exec(key);
    if (!match) continue;
    const sessionLoc = check.child(obsLoc, key);
    for (const [speaker, items] of Object.entries(check.expectObject(bySpeaker, sessionLoc))) {
      const itemsLoc = check.child(sessionLoc, speaker);
      check
        .expectArray(items, itemsLoc)
        .forEach((item, i) =>
          rows.push(
            readObservation(item, check.child(itemsLoc, i), convId, Number(match[1]), speaker),
          ),
        );
    }
  }
  return rows.sort((a, b) => a.session - b.session);
}

function sessionSummaries({ sample, loc, convId }: LocomoSample): LocomoSessionSummaryRow[] {
  const summaries = check.getOptionalObject(sample, 'session_summary', loc) ?? {};
  const rows: LocomoSessionSummaryRow[] = [];
  for (const [key, summary] of Object.entries(summaries)) {
    const match = SUMMARY_KEY.exec(key);
    if (!match) continue;
    const text = check.expectString(summary, check.child(check.child(loc, 'session_summary'), key));
    rows.push({ conv_id: convId, session: Number(match[1]), summary: text });
  }
  return rows.sort((a, b) => a.session - b.session);
}

/** All tables of LoCoMo10 (`locomo10.json`, already parsed). */
export function locomoTables(doc: unknown, file = 'locomo10.json'): LocomoTables {
  const tables: LocomoTables = {
    conversations: [],
    sessions: [],
    turns: [],
    queries: [],
    locomo_observations: [],
    locomo_session_summaries: [],
  };
  for (const entry of locomoSamples(doc, file)) {
    const conv = locomoConversation(entry, 'locomo');
    tables.conversations.push(...conv.conversations);
    tables.sessions.push(...conv.sessions);
    tables.turns.push(...conv.turns);
    const qaLoc = check.child(entry.loc, 'qa');
    check
      .getArray(entry.sample, 'qa', entry.loc)
      .forEach((qa, i) =>
        tables.queries.push(readQuery(qa, check.child(qaLoc, i), entry.convId, i)),
      );
    tables.locomo_observations.push(...observations(entry));
    tables.locomo_session_summaries.push(...sessionSummaries(entry));
  }
  return tables;
}
