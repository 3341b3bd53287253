// What the mapping step lists about the records it read, before anything is loaded: ids that
// repeat, keys an object repeats (the last one wins), and fields whose values change type.
import { plural } from '../../../lib/common/plural.ts';
import {
  fieldValue,
  kindOf,
  type FieldInfo,
  type ValueKind,
} from '../../../lib/userdata/fields.ts';
import { ROLES, type Mapping } from '../../../lib/userdata/mapping.ts';
import type { UserRecord } from '../../../lib/userdata/record.ts';
import { describeRepeats, type KeyRepeat } from '../../../lib/userdata/repeated-keys.ts';

/** Names of a record's own id, most specific first; the first top-level field named so is checked. */
const ID_NAMES = ['task_id', 'query_id', 'question_id', 'record_id', 'qid', 'uid', 'id', '_id'];

/** Values of the id field that more than one record has: how many, and where the first is. */
export function duplicateIdNote(sample: readonly UserRecord[], fields: readonly FieldInfo[]) {
  const field = ID_NAMES.map((name) =>
    fields.find((f) => f.path.length === 1 && f.path[0].toLowerCase() === name),
  ).find((f) => f !== undefined);
  if (!field) return null;
  const lines = new Map<string, number[]>();
  for (const record of sample) {
    const value = fieldValue(record.value, field.path);
    if (value === undefined || value === null) continue;
    const key = JSON.stringify(value);
    const seen = lines.get(key);
    if (seen) seen.push(record.line);
    else lines.set(key, [record.line]);
  }
  const repeated = [...lines].filter(([, at]) => at.length > 1);
  if (repeated.length === 0) return null;
  const records = repeated.reduce((n, [, at]) => n + at.length, 0);
  const [value, at] = repeated[0];
  return (
    `${field.label}: ${plural(repeated.length, 'value')} repeated across ${plural(records, 'record')} ` +
    `of the ${sample.length} read (the first, ${value}, on lines ${at[0]} and ${at[1]}); ` +
    `all are loaded, so the same ${field.label} names more than one row.`
  );
}

interface KindTally {
  count: number;
  firstLine: number;
}

/** Kinds a mapped field's value may take; anything else stops the load at that record. */
function allowed(role: (typeof ROLES)[number]): ValueKind[] {
  return role === 'gold' ? ['string', 'number', 'array'] : ['string', 'number', 'boolean'];
}

/**
 * Fields whose non-null values are of more than one kind in the sample: the commonest kind, and
 * each other kind with its count and first line; for a mapped field, whether loading stops there.
 */
export function typeMismatchNotes(
  sample: readonly UserRecord[],
  fields: readonly FieldInfo[],
  mapping: Mapping,
): string[] {
  const notes: string[] = [];
  for (const field of fields) {
    if (field.kinds.filter((k) => k !== 'null').length < 2) continue;
    const tallies = new Map<ValueKind, KindTally>();
    for (const record of sample) {
      const value = fieldValue(record.value, field.path);
      if (value === undefined || value === null) continue;
      const kind = kindOf(value);
      const tally = tallies.get(kind);
      if (tally) tally.count++;
      else tallies.set(kind, { count: 1, firstLine: record.line });
    }
    const [main, ...others] = [...tallies].sort((a, b) => b[1].count - a[1].count);
    const id = JSON.stringify(field.path);
    const role = ROLES.find((r) => mapping[r] !== null && JSON.stringify(mapping[r]) === id);
    const stops = role ? others.filter(([kind]) => !allowed(role).includes(kind)) : [];
    const listed = others.map(
      ([kind, t]) => `${kind} in ${t.count} (first on line ${t.firstLine})`,
    );
    const outcome = stops.length
      ? `mapped as the ${role}, loading will stop at line ${Math.min(...stops.map(([, t]) => t.firstLine))}.`
      : role
        ? `mapped as the ${role}, each is loaded as text.`
        : 'kept as they are in the fields column.';
    notes.push(
      `${field.label}: ${main[0]} in ${plural(main[1].count, 'record')}, ${listed.join(', ')}; ${outcome}`,
    );
  }
  return notes;
}

export interface SampleFacts {
  sample: readonly UserRecord[];
  fields: readonly FieldInfo[];
  repeats: readonly KeyRepeat[];
}

/** Every note about the sample, for the mapping now chosen. */
export function sampleNotes(facts: SampleFacts, mapping: Mapping): string[] {
  const notes: string[] = [];
  const ids = duplicateIdNote(facts.sample, facts.fields);
  if (ids) notes.push(ids);
  const repeats = describeRepeats(facts.repeats);
  if (repeats) notes.push(repeats);
  notes.push(...typeMismatchNotes(facts.sample, facts.fields, mapping));
  return notes;
}
