// One user table as this browser keeps it: the file's bytes and the plan that loaded them, so the
// same loader recreates the table exactly. Entries read back are checked before use.
import type { DataKind } from './inspect.ts';
import { ROLES, type Mapping } from './mapping.ts';
import type { FileFormat } from './record.ts';
import type { LoadPlan } from './load.ts';

/** Bumped when the entry's shape changes; an entry of another version is reported, not read. */
export const STORED_TABLE_VERSION = 1;

export interface StoredTable {
  version: typeof STORED_TABLE_VERSION;
  table: string;
  file: string;
  format: FileFormat;
  kind: DataKind;
  mapping: Mapping;
  /** The file as it was loaded. */
  bytes: Blob;
  savedAt: string;
  /**
   * The benchmark declared over the table, as JSON (userdata/benchmark-decl.ts); checked where it
   * is read, not on every start. Null when none (and in entries kept before there were any).
   */
  benchmark: string | null;
}

/** A stored entry that cannot be read back: the table it claims to be and why. */
export class StoredTableError extends Error {
  /** What is wrong, without the table's name. */
  readonly reason: string;

  constructor(
    readonly table: string,
    why: string,
  ) {
    const reason = `the copy kept in this browser cannot be read (${why})`;
    super(`${table}: ${reason}`);
    this.reason = reason;
    this.name = 'StoredTableError';
  }
}

const FORMATS: readonly FileFormat[] = ['jsonl', 'json', 'csv', 'tsv', 'parquet'];
const KINDS: readonly DataKind[] = ['records', 'inmind-submission'];

export function storedTable(plan: LoadPlan, file: string, bytes: Blob): StoredTable {
  return {
    version: STORED_TABLE_VERSION,
    table: plan.table,
    file,
    format: plan.format,
    kind: plan.kind,
    mapping: plan.mapping,
    bytes,
    savedAt: new Date().toISOString(),
    benchmark: null,
  };
}

export function planOf(entry: StoredTable): LoadPlan {
  return { table: entry.table, format: entry.format, kind: entry.kind, mapping: entry.mapping };
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return values.find((v) => v === value);
}

function decodeMapping(value: unknown, table: string): Mapping {
  if (!isRecord(value)) throw new StoredTableError(table, 'no field mapping');
  const path = (role: string): string[] | null => {
    const p = value[role];
    if (p === null || p === undefined) return null;
    if (Array.isArray(p) && p.every((k): k is string => typeof k === 'string')) return p;
    throw new StoredTableError(table, `the mapping of ${role} is not a field path`);
  };
  const [query, memory, gold, conversation, speaker] = ROLES.map(path);
  return { query, memory, gold, conversation, speaker };
}

/** Checks a value read from storage under `key`; throws a `StoredTableError` naming it. */
export function decodeStoredTable(value: unknown, key: string): StoredTable {
  if (!isRecord(value)) throw new StoredTableError(key, 'not an entry');
  const table = typeof value.table === 'string' ? value.table : key;
  if (value.version !== STORED_TABLE_VERSION) {
    throw new StoredTableError(
      table,
      `kept by another version of MemLens (${String(value.version)}, this one reads ${STORED_TABLE_VERSION})`,
    );
  }
  if (table !== key) throw new StoredTableError(key, `it names another table, ${table}`);
  const format = oneOf(FORMATS, value.format);
  if (!format) throw new StoredTableError(table, `unknown format ${String(value.format)}`);
  const kind = oneOf(KINDS, value.kind);
  if (!kind) throw new StoredTableError(table, `unknown kind ${String(value.kind)}`);
  if (typeof value.file !== 'string') throw new StoredTableError(table, 'no file name');
  if (!(value.bytes instanceof Blob))
    throw new StoredTableError(table, 'the file bytes are missing');
  return {
    version: STORED_TABLE_VERSION,
    table,
    file: value.file,
    format,
    kind,
    mapping: decodeMapping(value.mapping, table),
    bytes: value.bytes,
    savedAt: typeof value.savedAt === 'string' ? value.savedAt : '',
    benchmark: isString(value.benchmark) ? value.benchmark : null,
  };
}
