import {
  answerText,
  locomoConversation,
  locomoQueryId,
  locomoSamples,
  normalizeEvidence,
  type LocomoSample,
} from '../../datasets/locomo.ts';
import type { ConversationTables, QueryRow, QueryStyle } from '../../datasets/tables.ts';
import * as check from '../../datasets/validate.ts';

/** LoCoMo10 sample ids in file order; `sample_idx` in the multimem files indexes this list. */
export const LOCOMO10_SAMPLE_IDS: readonly string[] = [
  'conv-26',
  'conv-30',
  'conv-41',
  'conv-42',
  'conv-43',
  'conv-44',
  'conv-47',
  'conv-48',
  'conv-49',
  'conv-50',
];

export interface LocomoConvQueryRow extends QueryRow {
  /** `<sample_id>:q<idx>`, the same id as the LoCoMo query; null for composed queries. */
  qa_id: string | null;
  qa_index: number | null;
  cluster_id: string | null;
  /** Composed queries: the `qa_id`s of the member QAs. */
  member_qa_ids: string[];
  subject_speaker_name: string | null;
  expected_memory_use: string | null;
  asserted_wrong: string | null;
  naturalness: string | null;
  /** The rewriter's stated reason for this style's query. */
  reason: string | null;
  rewrite_error: string | null;
  adversarial_answer: string | null;
  malformed_evidence: string[];
}

export interface LocomoConvSupportiveRow {
  /** The QA's id (`<sample_id>:q<idx>`), matching `qa_id` on the query rows. */
  query_id: string;
  conv_id: string;
  dia_id: string;
  n_systems: number;
  source_systems: string[];
}

export interface LocomoConvDialogTables extends ConversationTables {
  queries: LocomoConvQueryRow[];
  locomo_conv_supportive: LocomoConvSupportiveRow[];
}

export interface LocomoConvComposedTables {
  queries: LocomoConvQueryRow[];
}

interface StyleFields {
  style: Exclude<QueryStyle, 'composed' | 'trigger'>;
  text: string;
  subject: string | null;
  reason: string | null;
  error: string | null;
}

const ADVERSARIAL_CATEGORY = 5;

/** Missing / null → null; strings as they are; anything else as its JSON text. */
function looseText(obj: check.JsonObject, key: string): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The query styles a QA yields, per the repo's selection rule (empty/missing queries skipped). */
function styleFields(qa: check.JsonObject, loc: check.Loc, category: number): StyleFields[] {
  const field = (key: string) => check.getOptionalString(qa, key, loc);
  const candidates: (StyleFields | null)[] = [
    withText('question', field('question'), null, null, null),
    withText(
      'dialog',
      field('dialog_query'),
      field('subject_speaker_name'),
      field('rewrite_reason'),
      looseText(qa, 'rewrite_error'),
    ),
    withText(
      'implicit',
      field('implicit_query'),
      field('implicit_subject_speaker_name'),
      field('implicit_reason'),
      looseText(qa, 'implicit_error'),
    ),
    category === ADVERSARIAL_CATEGORY
      ? null
      : withText(
          'counterfactual',
          field('counterfactual_query'),
          field('counterfactual_subject_speaker_name'),
          field('counterfactual_reason'),
          looseText(qa, 'counterfactual_error'),
        ),
  ];
  return candidates.filter((c): c is StyleFields => c !== null);
}

function withText(
  style: StyleFields['style'],
  text: string | null,
  subject: string | null,
  reason: string | null,
  error: string | null,
): StyleFields | null {
  if (text === null || text.trim() === '') return null;
  return { style, text, subject, reason, error };
}

function qaQueries(
  value: unknown,
  loc: check.Loc,
  convId: string,
  qaIndex: number,
): LocomoConvQueryRow[] {
  const qa = check.expectObject(value, loc);
  check.getString(qa, 'question', loc);
  const category = check.getInteger(qa, 'category', loc);
  const evidence = normalizeEvidence(check.getStringArray(qa, 'evidence', loc));
  const qaId = locomoQueryId(convId, qaIndex);
  return styleFields(qa, loc, category).map((s) => ({
    dataset: 'locomo-conv',
    query_id: `${qaId}:${s.style}`,
    conv_id: convId,
    style: s.style,
    category,
    text: s.text,
    answer: answerText(qa, 'answer', loc),
    gold_ids: evidence.ids,
    qa_id: qaId,
    qa_index: qaIndex,
    cluster_id: null,
    member_qa_ids: [],
    subject_speaker_name: s.subject,
    expected_memory_use:
      s.style === 'implicit' ? check.getOptionalString(qa, 'expected_memory_use', loc) : null,
    asserted_wrong:
      s.style === 'counterfactual' ? check.getOptionalString(qa, 'asserted_wrong', loc) : null,
    naturalness: s.style === 'dialog' ? check.getOptionalString(qa, 'naturalness', loc) : null,
    reason: s.reason,
    rewrite_error: s.error,
    adversarial_answer: answerText(qa, 'adversarial_answer', loc),
    malformed_evidence: evidence.malformed,
  }));
}

function supportiveRows(
  value: unknown,
  loc: check.Loc,
  convId: string,
  qaIndex: number,
): LocomoConvSupportiveRow[] {
  const qa = check.expectObject(value, loc);
  if (qa.supportive_memory === undefined || qa.supportive_memory === null) return [];
  const listLoc = check.child(loc, 'supportive_memory');
  return check.expectArray(qa.supportive_memory, listLoc).map((item, i) => {
    const itemLoc = check.child(listLoc, i);
    const memory = check.expectObject(item, itemLoc);
    return {
      query_id: locomoQueryId(convId, qaIndex),
      conv_id: convId,
      dia_id: check.getString(memory, 'dia_id', itemLoc),
      n_systems: check.getInteger(memory, 'n_systems', itemLoc),
      source_systems: check.getStringArray(memory, 'source_systems', itemLoc),
    };
  });
}

function addSample(tables: LocomoConvDialogTables, entry: LocomoSample): void {
  const conv = locomoConversation(entry, 'locomo-conv');
  tables.conversations.push(...conv.conversations);
  tables.sessions.push(...conv.sessions);
  tables.turns.push(...conv.turns);
  const qaLoc = check.child(entry.loc, 'qa');
  check.getArray(entry.sample, 'qa', entry.loc).forEach((qa, i) => {
    tables.queries.push(...qaQueries(qa, check.child(qaLoc, i), entry.convId, i));
    tables.locomo_conv_supportive.push(
      ...supportiveRows(qa, check.child(qaLoc, i), entry.convId, i),
    );
  });
}

/**
 * `locomo10_dialog.json` (already parsed): conversations plus one query row per QA and style
 * (question, dialog, implicit, counterfactual). Gold is the original LoCoMo evidence for every
 * style. Category-5 QAs get no counterfactual row; note the repo's scripts also drop them from the
 * `question` style, which rows here keep (filter on `category`).
 */
export function locomoConvDialogTables(
  doc: unknown,
  file = 'locomo10_dialog.json',
): LocomoConvDialogTables {
  const tables: LocomoConvDialogTables = {
    conversations: [],
    sessions: [],
    turns: [],
    queries: [],
    locomo_conv_supportive: [],
  };
  for (const entry of locomoSamples(doc, file)) addSample(tables, entry);
  return tables;
}

/** Sample ids in file order of a LoCoMo-shaped file (locomo10.json or locomo10_dialog.json). */
export function locomoSampleIds(doc: unknown, file: string): string[] {
  return locomoSamples(doc, file).map((s) => s.convId);
}

function clusterQuery(
  value: unknown,
  loc: check.Loc,
  sampleIds: readonly string[],
): LocomoConvQueryRow {
  const cluster = check.expectObject(value, loc);
  const sampleIdx = check.getInteger(cluster, 'sample_idx', loc);
  const convId = sampleIds[sampleIdx];
  if (convId === undefined) {
    check.fail(
      check.child(loc, 'sample_idx'),
      `an index into the ${sampleIds.length} sample ids`,
      sampleIdx,
    );
  }
  const clusterId = check.getString(cluster, 'cluster_id', loc);
  const membersLoc = check.child(loc, 'member_q_idxs');
  const members = check
    .getArray(cluster, 'member_q_idxs', loc)
    .map((m, i) => check.expectInteger(m, check.child(membersLoc, i)));
  const gold = normalizeEvidence(check.getStringArray(cluster, 'gold_dia_ids', loc));
  return {
    dataset: 'locomo-conv',
    query_id: `${convId}:${clusterId}`,
    conv_id: convId,
    style: 'composed',
    category: null,
    text: check.getString(cluster, 'composed_query', loc),
    answer: null,
    gold_ids: gold.ids,
    qa_id: null,
    qa_index: null,
    cluster_id: clusterId,
    member_qa_ids: members.map((q) => locomoQueryId(convId, q)),
    subject_speaker_name: check.getOptionalString(cluster, 'subject_speaker_name', loc),
    expected_memory_use: check.getOptionalString(cluster, 'expected_memory_use', loc),
    asserted_wrong: null,
    naturalness: null,
    reason: check.getOptionalString(cluster, 'rewrite_reason', loc),
    rewrite_error: looseText(cluster, 'rewrite_error'),
    adversarial_answer: null,
    malformed_evidence: gold.malformed,
  };
}

/**
 * `locomo10_multimem.json` / `locomo10_multimem_full.json` (already parsed): one `composed` query
 * per cluster, gold = the cluster's `gold_dia_ids`. `sampleIds[sample_idx]` is the conversation id.
 */
export function locomoConvComposedTables(
  doc: unknown,
  file = 'locomo10_multimem.json',
  sampleIds: readonly string[] = LOCOMO10_SAMPLE_IDS,
): LocomoConvComposedTables {
  const root = check.rootLoc(file);
  return {
    queries: check
      .expectArray(doc, root)
      .map((c, i) => clusterQuery(c, check.child(root, i), sampleIds)),
  };
}
