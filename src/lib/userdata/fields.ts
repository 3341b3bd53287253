import { isObject, type JsonObject } from '../datasets/validate.ts';

export type ValueKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** A field seen in the sample: top-level, or one level inside an object (`naive.context`). */
export interface FieldInfo {
  path: string[];
  label: string;
  kinds: ValueKind[];
  /** Records of the sample that have the field. */
  present: number;
  /** Mean length of its string values (0 when it has none). */
  meanLength: number;
  example: string;
  /** Values too large for a double (`1e400` reads as Infinity): stored as null. */
  nonFinite: number;
}

export function kindOf(value: unknown): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'null';
}

/** A key that would read as a path (`a.b`), or that is empty or quoted, is shown quoted. */
const PLAIN_KEY = /^[^."\s]+$/;

/** `a.b` is the field `b` inside `a`; a key that itself holds a dot is shown as `"a.b"`. */
export function fieldLabel(path: readonly string[]): string {
  return path.map((key) => (PLAIN_KEY.test(key) ? key : JSON.stringify(key))).join('.');
}

export function fieldValue(record: JsonObject, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

interface Tally {
  path: string[];
  kinds: Set<ValueKind>;
  present: number;
  lengthSum: number;
  strings: number;
  example: string;
  nonFinite: number;
}

const MAX_DEPTH = 2;

/**
 * Fields tallied up front (types, presence, example); a wider record's other fields are kept by
 * name only, found by the same search and tallied when shown (`fieldInfo`), so a field at
 * position 10⁶ can be mapped without a million tallies in memory.
 */
export const MAX_LISTED_FIELDS = 1000;

export interface FieldSummary {
  fields: FieldInfo[];
  /** Distinct fields seen beyond MAX_LISTED_FIELDS, in order of first sight. */
  folded: number;
  /** Their paths, each as JSON (`["field_999999"]`). */
  foldedIds: string[];
  /** Keys holding a dot that would read like a nested field beside them (`"a.b"` and `a.b`). */
  clashes: string[];
}

export function collectFields(records: readonly JsonObject[]): FieldInfo[] {
  return summarizeFields(records).fields;
}

export function summarizeFields(
  records: readonly JsonObject[],
  limit = MAX_LISTED_FIELDS,
): FieldSummary {
  const tally = new FieldTally(limit);
  for (const record of records) tally.add(record);
  return tally.summary();
}

/**
 * Fields tallied record by record, so a file's records can be summed as they stream by: the
 * mapping step sees a field that only records after the sample hold (queries after memories).
 */
export class FieldTally {
  private readonly tallies = new Map<string, Tally>();
  /** Distinct folded ids; a Set keeps the order it was filled in, so they come out as first seen. */
  private readonly folded = new Set<string>();
  /** Records added. */
  records = 0;

  constructor(private readonly limit = MAX_LISTED_FIELDS) {}

  add(record: JsonObject): void {
    this.records++;
    this.visit(record, []);
  }

  private visit(obj: JsonObject, prefix: string[]): void {
    for (const [key, value] of Object.entries(obj)) {
      const path = [...prefix, key];
      const id = JSON.stringify(path);
      let tally = this.tallies.get(id);
      if (!tally) {
        if (this.tallies.size >= this.limit) {
          this.folded.add(id);
          continue;
        }
        tally = newTally(path);
        this.tallies.set(id, tally);
      }
      tally.present++;
      tally.kinds.add(kindOf(value));
      if (typeof value === 'number' && !Number.isFinite(value)) tally.nonFinite++;
      if (typeof value === 'string') {
        tally.strings++;
        tally.lengthSum += value.length;
      }
      if (tally.example === '' && value !== null && value !== '') tally.example = preview(value);
      if (isObject(value) && path.length < MAX_DEPTH) this.visit(value, path);
    }
  }

  summary(): FieldSummary {
    const fields = [...this.tallies.values()].map((t) => ({
      path: t.path,
      label: fieldLabel(t.path),
      kinds: [...t.kinds].sort(),
      present: t.present,
      meanLength: t.strings === 0 ? 0 : t.lengthSum / t.strings,
      example: t.example,
      nonFinite: t.nonFinite,
    }));
    const foldedIds = [...this.folded];
    return { fields, folded: foldedIds.length, foldedIds, clashes: dottedClashes(fields) };
  }
}

function newTally(path: string[]): Tally {
  return {
    path,
    kinds: new Set(),
    present: 0,
    lengthSum: 0,
    strings: 0,
    example: '',
    nonFinite: 0,
  };
}

/** One field's tally over the sample (a folded field, when it is shown or chosen). */
export function fieldInfo(records: readonly JsonObject[], path: readonly string[]): FieldInfo {
  const kinds = new Set<ValueKind>();
  let present = 0;
  let lengthSum = 0;
  let strings = 0;
  let example = '';
  let nonFinite = 0;
  for (const record of records) {
    if (!hasPath(record, path)) continue;
    const value = fieldValue(record, path);
    present++;
    kinds.add(kindOf(value));
    if (typeof value === 'number' && !Number.isFinite(value)) nonFinite++;
    if (typeof value === 'string') {
      strings++;
      lengthSum += value.length;
    }
    if (example === '' && value !== null && value !== undefined && value !== '') {
      example = preview(value);
    }
  }
  return {
    path: [...path],
    label: fieldLabel(path),
    kinds: [...kinds].sort(),
    present,
    meanLength: strings === 0 ? 0 : lengthSum / strings,
    example,
    nonFinite,
  };
}

function hasPath(record: JsonObject, path: readonly string[]): boolean {
  let value: unknown = record;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return false;
    value = value[key];
  }
  return true;
}

function parsePath(id: string): string[] {
  const path: unknown = JSON.parse(id);
  return Array.isArray(path) ? path.map(String) : [];
}

/**
 * The listed fields, then the folded ones, whose label contains `search`: at most `limit`
 * shown (folded ones tallied over `records` as they are shown), and how many match in all.
 */
export function wideFieldWindow(
  summary: Pick<FieldSummary, 'fields' | 'foldedIds'>,
  records: readonly JsonObject[],
  search: string,
  limit: number,
): FieldWindow {
  const { shown, matching } = fieldWindow(summary.fields, search, limit);
  const needle = search.trim().toLowerCase();
  // Without a dot or a quote in the search, the id holds it wherever the label does.
  const quick = needle !== '' && !/[."\\]/.test(needle);
  let total = matching;
  for (const id of summary.foldedIds) {
    if (quick && !id.toLowerCase().includes(needle)) continue;
    const path = parsePath(id);
    if (needle && !fieldLabel(path).toLowerCase().includes(needle)) continue;
    total++;
    if (shown.length < limit) shown.push(fieldInfo(records, path));
  }
  return { shown, matching: total };
}

/** Labels that a plain dotted join would have given to two different fields. */
function dottedClashes(fields: readonly FieldInfo[]): string[] {
  const byJoin = new Map<string, number>();
  for (const f of fields) byJoin.set(f.path.join('.'), (byJoin.get(f.path.join('.')) ?? 0) + 1);
  return [...byJoin].filter(([, n]) => n > 1).map(([joined]) => joined);
}

export interface FieldWindow {
  shown: FieldInfo[];
  /** Fields matching the search, of which `shown` are the first. */
  matching: number;
}

/** The fields the mapping step lists: those whose label contains `search`, at most `limit`. */
export function fieldWindow(
  fields: readonly FieldInfo[],
  search: string,
  limit: number,
): FieldWindow {
  const needle = search.trim().toLowerCase();
  const shown: FieldInfo[] = [];
  let matching = 0;
  for (const f of fields) {
    if (needle && !f.label.toLowerCase().includes(needle)) continue;
    matching++;
    if (shown.length < limit) shown.push(f);
  }
  return { shown, matching };
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
