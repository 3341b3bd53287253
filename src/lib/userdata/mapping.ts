import {
  DatasetFormatError,
  child,
  fail,
  type JsonObject,
  type Loc,
} from '../datasets/validate.ts';
import { fieldLabel, fieldValue, type FieldInfo } from './fields.ts';
import type { UserRecord } from './record.ts';

export const ROLES = ['query', 'memory', 'gold', 'conversation', 'speaker'] as const;
export type Role = (typeof ROLES)[number];

/** Which field (a path into the record) plays each role; null when none does. */
export type Mapping = Record<Role, string[] | null>;

export const ROLE_LABELS: Record<Role, string> = {
  query: 'Query (the question asked)',
  memory: 'Memory (text to remember or retrieve)',
  gold: 'Gold (answer or evidence ids)',
  conversation: 'Conversation id (groups records in the viewer)',
  speaker: 'Speaker',
};

/** Names tried in order; the first field whose last key matches wins. */
const NAMES: Record<Role, string[]> = {
  query: ['query', 'question', 'naive_query', 'prompt', 'input', 'instruction', 'q', 'user_query'],
  memory: [
    'memory',
    'context',
    'user_message',
    'fact',
    'passage',
    'document',
    'text',
    'content',
    'message',
    'utterance',
    'turn',
  ],
  gold: [
    'gold',
    'gold_ids',
    'answer',
    'answers',
    'label',
    'target',
    'expected',
    'ground_truth',
    'evidence',
    'reference',
  ],
  conversation: [
    'conversation',
    'conv_id',
    'conversation_id',
    'dialog_id',
    'session_id',
    'sample_id',
    'thread',
  ],
  speaker: ['speaker', 'role', 'author', 'from'],
};

/** A field is offered for a role if some sampled values fit it; loading then checks every record. */
function fits(role: Role, field: FieldInfo): boolean {
  const kinds = role === 'gold' ? ['string', 'number', 'array'] : ['string', 'number'];
  return field.kinds.some((k) => kinds.includes(k));
}

/**
 * The fields a role's menu offers: those that fit it and match `search`, at most `limit`, and
 * always the one now chosen, so a menu never grows with the width of the file.
 */
export function roleOptions(
  fields: readonly FieldInfo[],
  role: Role,
  chosen: readonly string[] | null,
  search: string,
  limit: number,
): FieldInfo[] {
  const needle = search.trim().toLowerCase();
  const id = chosen === null ? null : JSON.stringify(chosen);
  const out: FieldInfo[] = [];
  let hasChosen = false;
  for (const f of fields) {
    const isChosen = id !== null && JSON.stringify(f.path) === id;
    const matches = fits(role, f) && (!needle || f.label.toLowerCase().includes(needle));
    if (isChosen || (matches && out.length < limit)) {
      out.push(f);
      hasChosen ||= isChosen;
    }
    if (out.length >= limit && (hasChosen || id === null)) break;
  }
  return out;
}

export function emptyMapping(): Mapping {
  return { query: null, memory: null, gold: null, conversation: null, speaker: null };
}

export function suggestMapping(fields: readonly FieldInfo[]): Mapping {
  const mapping = emptyMapping();
  const used = new Set<string>();
  for (const role of ROLES) {
    for (const name of NAMES[role]) {
      const match = fields.find(
        (f) =>
          !used.has(f.label) && f.path[f.path.length - 1].toLowerCase() === name && fits(role, f),
      );
      if (match) {
        mapping[role] = match.path;
        used.add(match.label);
        break;
      }
    }
  }
  if (mapping.query === null && mapping.memory === null) {
    const longest = fields
      .filter((f) => !used.has(f.label) && f.kinds.includes('string') && fits('memory', f))
      .sort((a, b) => b.meanLength - a.meanLength)[0];
    if (longest) mapping.memory = longest.path;
  }
  return mapping;
}

/**
 * What loading with `mapping` would change without a word, listed before the load: a field named
 * for a role but left out because its values do not fit (an array-valued `query`), and numbers
 * too large for a double.
 */
export function mappingNotes(fields: readonly FieldInfo[], mapping: Mapping): string[] {
  const notes: string[] = [];
  for (const role of ROLES) {
    const chosen = mapping[role];
    const named = fields.find(
      (f) => f.path.length === 1 && NAMES[role][0] === f.path[0].toLowerCase() && !fits(role, f),
    );
    if (named && (chosen === null || fieldLabel(chosen) !== named.label)) {
      const instead = chosen ? `${fieldLabel(chosen)} was chosen instead` : 'no field was chosen';
      notes.push(
        `${named.label} holds ${named.kinds.join(', ')} values, which cannot be the ${role}: ${instead}.`,
      );
    }
  }
  for (const f of fields) {
    if (f.nonFinite > 0) {
      notes.push(
        `${f.label}: ${f.nonFinite} number${f.nonFinite === 1 ? '' : 's'} in the sample ${f.nonFinite === 1 ? 'is' : 'are'} too large for a double and will be stored as null.`,
      );
    }
  }
  return notes;
}

/** Why the mapping cannot be loaded, or null. */
export function mappingProblem(mapping: Mapping): string | null {
  return mapping.query === null && mapping.memory === null
    ? 'Choose the field that holds the query or the memory.'
    : null;
}

export interface MappedRow {
  line: number;
  query: string | null;
  memory: string | null;
  gold: string[] | null;
  conversation: string;
  speaker: string | null;
  /** The record's other top-level fields, as JSON; null when every field is mapped. */
  fields: string | null;
}

export const DEFAULT_CONVERSATION = 'all';

function recordLoc(file: string, record: UserRecord): Loc {
  return { file, path: record.path, line: record.line };
}

function pathLoc(loc: Loc, path: readonly string[]): Loc {
  return path.reduce<Loc>((l, key) => child(l, key), loc);
}

function text(
  record: UserRecord,
  path: string[] | null,
  role: Role,
  loc: Loc,
  required: boolean,
): string | null {
  if (path === null) return null;
  const value = fieldValue(record.value, path);
  const at = pathLoc(loc, path);
  if (value === undefined && !required) return null;
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail(at, `a string or number (mapped as the ${role})`, value);
}

function gold(record: UserRecord, path: string[] | null, loc: Loc): string[] | null {
  if (path === null) return null;
  const value = fieldValue(record.value, path);
  const at = pathLoc(loc, path);
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (!Array.isArray(value))
    return fail(at, 'a string, number or an array of them (mapped as the gold)', value);
  return value.map((item, i) => {
    if (typeof item === 'string' || typeof item === 'number') return String(item);
    return fail(child(at, i), 'a string or number', item);
  });
}

function otherFields(record: JsonObject, mapping: Mapping): string | null {
  const mapped = new Set(
    Object.values(mapping).flatMap((p) => (p && p.length === 1 ? [p[0]] : [])),
  );
  // fromEntries defines each key, so a `__proto__` field is kept as data, not taken as a prototype.
  const rest = Object.entries(record).filter(([key]) => !mapped.has(key));
  return rest.length > 0 ? JSON.stringify(Object.fromEntries(rest)) : null;
}

/**
 * One record as a user-table row. A mapped query or memory field must be present; when both are
 * mapped, a record holds one or both (a benchmark file's memories and queries, line by line).
 */
export function mapRecord(record: UserRecord, mapping: Mapping, file: string): MappedRow {
  const loc = recordLoc(file, record);
  const both = mapping.query !== null && mapping.memory !== null;
  const query = text(record, mapping.query, 'query', loc, !both);
  const memory = text(record, mapping.memory, 'memory', loc, !both);
  if (both && query === null && memory === null) {
    fail(
      pathLoc(loc, mapping.query ?? []),
      `a string or number (mapped as the query), or one in ${fieldLabel(mapping.memory ?? [])} (the memory)`,
      fieldValue(record.value, mapping.query ?? []),
    );
  }
  return {
    line: record.line,
    query,
    memory,
    gold: gold(record, mapping.gold, loc),
    conversation:
      text(record, mapping.conversation, 'conversation', loc, false) ?? DEFAULT_CONVERSATION,
    speaker: text(record, mapping.speaker, 'speaker', loc, false),
    fields: otherFields(record.value, mapping),
  };
}

export function describeMapping(mapping: Mapping): string {
  return ROLES.filter((r) => mapping[r] !== null)
    .map((r) => `${r} ← ${fieldLabel(mapping[r] ?? [])}`)
    .join(', ');
}

export function noMappingError(file: string): DatasetFormatError {
  return new DatasetFormatError(file, '', 'a field mapped to the query or the memory', {
    found: 'none (pick one in the mapping step)',
  });
}
