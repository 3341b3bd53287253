// A loaded InMind submission as one retriever per system in the comparison. A submission records
// the context each system showed its answer model, not a ranking, so the target's rank is the
// Target Recall proxy's (userdata/submission-proxy.ts): 1 + the background turns the context
// holds before the target message. That rank gives hit@k and recall@k on the queries the system
// submitted (naive from `naive.context`, indirect from `query.context`); there are no scores, so
// no AUC and no top-k list.
import { sha256Hex } from '../common/sha256.ts';
import { isUserTable, userTablesQuery } from '../query/user-tables.ts';
import type { QueryRunner } from '../query/query-client.ts';
import { lmeTurnTextsQuery } from '../datasets/inmind-queries.ts';
import {
  proxyTargetsQuery,
  submissionSystemRowsQuery,
  submissionSystemsQuery,
} from '../userdata/submission-proxy-queries.ts';
import { indexBackground, targetRank } from '../userdata/submission-proxy.ts';
import type { DataKind } from '../userdata/inspect.ts';
import { K_MAX, type Evaluation, type QueryOutcome } from './evaluate.ts';
import type { Protocol } from './types.ts';
import { INMIND_PROTOCOL_IDS } from './inmind.ts';
import type { ComparedRetriever, RecordedContexts } from './compare.ts';

/** `sub:TABLE:SYSTEM` (a table loaded on Your data) or the CLI's `submission:FILE[:SYSTEM]`. */
export type SubmissionRef =
  | { kind: 'table'; table: string; system: string }
  | { kind: 'file'; path: string; system: string | null };

export const SUBMISSION_FORMS = 'sub:TABLE:SYSTEM or submission:FILE[:SYSTEM]';

/** A comma or a percent sign in a system's name is written %2C / %25, so `cmp` can split on commas. */
export function escapeSystem(system: string): string {
  return system.replace(/%/g, '%25').replace(/,/g, '%2C');
}

function unescapeSystem(text: string): string {
  return text.replace(/%(2C|25)/gi, (m) => (m.toUpperCase() === '%2C' ? ',' : '%'));
}

function checkSystem(system: string, quoted: string): string {
  if (system.trim() === '') throw new Error(`${quoted}: the system name is empty`);
  if (system.length > 200) throw new Error(`${quoted}: the system name is over 200 characters`);
  return system;
}

/** Null when `text` names no submission; else the reference, checked. */
export function parseSubmissionRef(text: string): SubmissionRef | null {
  const trimmed = text.trim();
  const quoted = JSON.stringify(trimmed.slice(0, 200));
  const colon = trimmed.indexOf(':');
  const scheme = colon < 0 ? '' : trimmed.slice(0, colon);
  const body = trimmed.slice(colon + 1);
  if (scheme === 'sub') {
    const at = body.indexOf(':');
    const table = at < 0 ? body : body.slice(0, at);
    if (!isUserTable(table) || !/^user_[a-z0-9_]{1,48}$/.test(table)) {
      throw new Error(
        `${quoted}: expected sub:TABLE:SYSTEM with TABLE a table of Your data (user_…)`,
      );
    }
    if (at < 0) throw new Error(`${quoted}: name the system, sub:${table}:SYSTEM`);
    return {
      kind: 'table',
      table,
      system: checkSystem(unescapeSystem(body.slice(at + 1)), quoted),
    };
  }
  if (scheme === 'submission') {
    const at = body.indexOf(':');
    const file = at < 0 ? body : body.slice(0, at);
    if (file === '') throw new Error(`${quoted}: expected submission:FILE[:SYSTEM]`);
    const system = at < 0 ? null : checkSystem(unescapeSystem(body.slice(at + 1)), quoted);
    return { kind: 'file', path: file, system };
  }
  return null;
}

/** The text form; `parseSubmissionRef(formatSubmissionRef(ref))` gives `ref` back. */
export function formatSubmissionRef(ref: SubmissionRef): string {
  if (ref.kind === 'table') return `sub:${ref.table}:${escapeSystem(ref.system)}`;
  return `submission:${ref.path}${ref.system === null ? '' : `:${escapeSystem(ref.system)}`}`;
}

/** How Your data records a table loaded as an InMind submission (`__user_tables.kind`). */
export const SUBMISSION_KIND: DataKind = 'inmind-submission';

/** The series each recorded turn stands for, and the field it is read from. */
export const SUBMISSION_SERIES: Readonly<Record<string, 'naive_context' | 'query_context'>> = {
  naive: 'naive_context',
  indirect: 'query_context',
};

export interface SubmissionInput {
  system: string;
  rows: readonly { task_id: number; naive_context: string; query_context: string }[];
  targets: readonly { task_id: number; user_message: string }[];
  background: readonly { content: string }[];
}

/** What a submission retriever is, in words for the page and the CLI. */
export interface SubmissionScope {
  /** Tasks the system submitted that the protocol has. */
  tasks: number;
  /** The protocol's tasks. */
  of: number;
  /** Series covered, each with the context it is read from. */
  series: string[];
  /** Per query id: the recorded context and the target's rank in it (null: absent). */
  contexts: RecordedContexts;
}

export interface SubmissionRun {
  evaluation: Evaluation;
  scope: SubmissionScope;
  /** `proxy:sha256:…` of the system's rows: what pins this retriever in every exported row. */
  revision: string;
}

/** `123:indirect` → [123, 'indirect']: InMind's query ids (protocol-kit/inmind.ts). */
function taskOf(queryId: string): { task: number; series: string } | null {
  const m = /^(\d+):(naive|indirect)$/.exec(queryId);
  return m ? { task: Number(m[1]), series: m[2] } : null;
}

export function isInMindProtocol(protocol: Pick<Protocol, 'benchmark'>): boolean {
  return INMIND_PROTOCOL_IDS.some((id) => id === protocol.benchmark);
}

/** Tells where a system's tasks are not the protocol's (another InMind release, a typo). */
function checkCoverage(protocol: Protocol, name: string, rows: SubmissionInput['rows']): void {
  if (!isInMindProtocol(protocol)) {
    throw new Error(
      `${name}: an InMind submission ranks InMind's targets; compare it on InMind (bench=inmind), not ${protocol.benchmark}`,
    );
  }
  if (rows.length === 0) throw new Error(`${name}: the table has no rows for this system`);
}

/** The system's outcomes on the protocol's queries it covers, from the proxy's ranks. */
export async function submissionRun(
  protocol: Protocol,
  name: string,
  label: string,
  input: SubmissionInput,
  kMax = K_MAX,
): Promise<SubmissionRun> {
  checkCoverage(protocol, name, input.rows);
  const byTask = new Map(input.rows.map((r) => [r.task_id, r]));
  const targets = new Map(input.targets.map((t) => [t.task_id, t.user_message]));
  const index = indexBackground(input.background);
  const contexts = new Map<string, { context: string; rank: number | null }>();
  const outcomes: QueryOutcome[] = [];
  for (const query of protocol.queries) {
    const at = taskOf(query.id);
    const row = at ? byTask.get(at.task) : undefined;
    const field = at ? SUBMISSION_SERIES[at.series] : undefined;
    const target = at ? targets.get(at.task) : undefined;
    if (!at || !row || !field || target === undefined || query.goldIds.length === 0) continue;
    const context = row[field];
    const rank = targetRank(context, target, index);
    contexts.set(query.id, { context, rank });
    const corpus = protocol.corpora.get(query.corpusId);
    outcomes.push({
      query,
      targets: [],
      targetRank: rank,
      bestTarget: null,
      goldRanks: query.goldIds.map(() => (rank !== null && rank <= kMax ? rank : null)),
      top: [],
      corpusSize: corpus?.docs.length ?? 0,
    });
  }
  const tasks = new Set(outcomes.map((o) => taskOf(o.query.id)?.task));
  const of = new Set(protocol.queries.map((q) => taskOf(q.id)?.task)).size;
  if (outcomes.length === 0) {
    throw new Error(
      `${name}: none of its ${input.rows.length} tasks is one of this protocol's ${of} InMind tasks`,
    );
  }
  const digest = await sha256Hex(JSON.stringify([input.system, input.rows]));
  return {
    evaluation: {
      protocol,
      retrieverId: name,
      retrieverLabel: label,
      kMax,
      outcomes,
      background: new Map(),
      skipped: new Map(),
      backgroundOf: new Map(),
    },
    scope: {
      tasks: tasks.size,
      of,
      series: [...new Set(outcomes.map((o) => o.query.series))],
      contexts,
    },
    revision: `proxy:sha256:${digest}`,
  };
}

/** The protocol narrowed to some of its queries (and the corpora they use): the paired set. */
export function restrictProtocol(protocol: Protocol, queryIds: ReadonlySet<string>): Protocol {
  const queries = protocol.queries.filter((q) => queryIds.has(q.id));
  const used = new Set(queries.map((q) => q.corpusId));
  return {
    ...protocol,
    queries,
    corpora: new Map([...protocol.corpora].filter(([id]) => used.has(id))),
  };
}

/** What a page or the CLI must read to rank one system of a loaded submission table. */
export async function readSubmission(
  reader: QueryRunner,
  table: string,
  system: string,
  name: string,
  /** What to tell the reader when the table is not loaded (the page: load the file again). */
  whenMissing: string,
): Promise<SubmissionInput> {
  const kept = await reader.run(userTablesQuery());
  const entry = kept.find((t) => t.name === table);
  if (!entry) throw new Error(`${name}: no table ${table} is loaded here. ${whenMissing}`);
  if (entry.kind !== SUBMISSION_KIND) {
    throw new Error(
      `${name}: ${table} (from ${entry.file}) was loaded as ${entry.kind}, not as an InMind submission`,
    );
  }
  const [rows, targets, background] = await Promise.all([
    reader.run(submissionSystemRowsQuery(table, system)),
    reader.run(proxyTargetsQuery()),
    reader.run(lmeTurnTextsQuery()),
  ]);
  if (rows.length === 0) {
    const systems = (await reader.run(submissionSystemsQuery(table))).map((s) => s.system);
    throw new Error(
      `${name}: ${table} (from ${entry.file}) has no system "${system}"; it has ${systems.map((s) => `"${s}"`).join(', ')}`,
    );
  }
  return { system, rows, targets, background };
}

/** "covers 4 of 125 tasks (naive from naive.context; …), paired on 8 queries: …; no AUC: …" */
export function scopeLine(scope: SubmissionScope, paired: number): string {
  const from = scope.series.map((s) => `${s} from ${SUBMISSION_SERIES[s].replace('_', '.')}`);
  return (
    `covers ${scope.tasks} of ${scope.of} tasks (${from.join('; ')}), so every retriever is paired on ${paired} queries; ` +
    `hit@k from the target's rank in the recorded context, a rank-based proxy, not the paper's judged Target Recall; ` +
    `no AUC: a submission records contexts, not scores`
  );
}

/** One system of a loaded submission table, as a comparison names it. */
export interface SubmissionSource {
  name: string;
  table: string;
  system: string;
  /** What to tell the reader when the table is not loaded. */
  whenMissing: string;
}

export interface OpenedSubmission {
  name: string;
  input: SubmissionInput;
  label: string;
  /** Its run on the whole protocol: what it covers there. */
  full: SubmissionRun;
}

/** Each system read and ranked on the whole protocol, by its name. */
export async function openSubmissions(
  reader: QueryRunner,
  protocol: Protocol,
  sources: readonly SubmissionSource[],
): Promise<Map<string, OpenedSubmission>> {
  const opened = new Map<string, OpenedSubmission>();
  for (const { name, table, system, whenMissing } of sources) {
    const input = await readSubmission(reader, table, system, name, whenMissing);
    const label = `${system} (${table}, proxy)`;
    const full = await submissionRun(protocol, name, label, input);
    opened.set(name, { name, input, label, full });
  }
  return opened;
}

/** The queries every submission covers: a paired comparison runs on those alone. */
export function pairedProtocol(
  protocol: Protocol,
  subs: ReadonlyMap<string, OpenedSubmission>,
): Protocol {
  const covered = [...subs.values()].map(
    ({ full }) => new Set(full.evaluation.outcomes.map((o) => o.query.id)),
  );
  if (covered.length === 0) return protocol;
  const ids = new Set(
    protocol.queries.map((q) => q.id).filter((id) => covered.every((c) => c.has(id))),
  );
  if (ids.size === 0) {
    throw new Error(`${[...subs.keys()].join(' and ')} cover no query in common: nothing to pair`);
  }
  return restrictProtocol(protocol, ids);
}

/** A submission's system on the paired protocol, as the comparison takes it. */
export async function submissionCompared(
  protocol: Protocol,
  sub: OpenedSubmission,
): Promise<ComparedRetriever> {
  // Ranked again on the paired queries, so every retriever has the same outcomes.
  const run = await submissionRun(protocol, sub.name, sub.label, sub.input);
  return {
    ref: sub.name,
    label: sub.label,
    evaluation: run.evaluation,
    revision: run.revision,
    note: scopeLine(sub.full.scope, protocol.queries.length),
    contexts: run.scope.contexts,
  };
}
