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

export function fieldLabel(path: readonly string[]): string {
  return path.join('.');
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
}

const MAX_DEPTH = 2;

export function collectFields(records: readonly JsonObject[]): FieldInfo[] {
  const tallies = new Map<string, Tally>();
  const visit = (obj: JsonObject, prefix: string[]) => {
    for (const [key, value] of Object.entries(obj)) {
      const path = [...prefix, key];
      const id = JSON.stringify(path);
      let tally = tallies.get(id);
      if (!tally) {
        tally = { path, kinds: new Set(), present: 0, lengthSum: 0, strings: 0, example: '' };
        tallies.set(id, tally);
      }
      tally.present++;
      tally.kinds.add(kindOf(value));
      if (typeof value === 'string') {
        tally.strings++;
        tally.lengthSum += value.length;
      }
      if (tally.example === '' && value !== null && value !== '') tally.example = preview(value);
      if (isObject(value) && path.length < MAX_DEPTH) visit(value, path);
    }
  };
  for (const record of records) visit(record, []);
  return [...tallies.values()].map((t) => ({
    path: t.path,
    label: fieldLabel(t.path),
    kinds: [...t.kinds].sort(),
    present: t.present,
    meanLength: t.strings === 0 ? 0 : t.lengthSum / t.strings,
    example: t.example,
  }));
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
