// A declaration (benchmark-decl.ts) read against a user table's rows: which rows are memories and
// which queries, each part checked, every problem named by table, line, part and field. Kept apart
// from the declaration itself, which the kept-tables store reads on every start.
import {
  DECL_PARTS,
  DECL_VERSION,
  DeclarationError,
  TABLE_COLUMNS,
  partField,
  type DeclPart,
  type UserBenchmarkDecl,
} from './benchmark-decl.ts';

import type { QueryRunner } from '../query/query-client.ts';
import { KIND_WORDS, kindKey, rowKindOf } from './row-kind.ts';
import { userRecordsQuery } from '../query/user-benchmarks.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A row of a mapped user table, as the declaration reads it. */
export interface UserTableRow {
  line: number;
  query: string | null;
  memory: string | null;
  gold: string[] | null;
  conversation: string | null;
  speaker: string | null;
  /** The record's other fields as JSON. */
  fields: string | null;
}

/** A row as the table query returns it (`gold` any SQL value) as a declaration reads it. */
export function tableRow(row: Omit<UserTableRow, 'gold'> & { gold: unknown }): UserTableRow {
  const gold = Array.isArray(row.gold)
    ? row.gold.flatMap((v) => (typeof v === 'string' ? [v] : []))
    : null;
  return { ...row, gold };
}

function parsedFields(row: UserTableRow): Record<string, unknown> {
  if (row.fields === null) return {};
  try {
    const parsed: unknown = JSON.parse(row.fields);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function fieldOf(row: UserTableRow, extra: Record<string, unknown>, field: string): unknown {
  if (field.startsWith('fields.')) {
    const key = field.slice('fields.'.length);
    return Object.hasOwn(extra, key) ? extra[key] : undefined;
  }
  switch (field) {
    case 'memory':
      return row.memory;
    case 'query':
      return row.query;
    case 'gold':
      return row.gold;
    case 'conversation':
      return row.conversation;
    case 'speaker':
      return row.speaker;
    default:
      return row.line;
  }
}

export interface UserMemory {
  id: string;
  text: string;
  session: string | null;
  date: string | null;
  line: number;
}

export interface UserQuery {
  /** The row's memory-id field when it has one, else `line N`. */
  id: string;
  text: string;
  gold: string[];
  category: string | null;
  line: number;
}

export interface UserBenchmarkRows {
  memories: UserMemory[];
  queries: UserQuery[];
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing (the row has no such field)';
  if (v === null) return 'null';
  return `${Array.isArray(v) ? 'a list' : typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

class RowReader {
  constructor(
    private readonly table: string,
    private readonly row: UserTableRow,
    private readonly extra: Record<string, unknown>,
  ) {}

  fail(part: DeclPart, field: string, what: string): never {
    throw new DeclarationError(`${this.table} line ${this.row.line}: ${part} (${field}): ${what}`);
  }

  raw(field: string): unknown {
    return fieldOf(this.row, this.extra, field);
  }

  /** Whether the row's `key` field names it a query (else a memory); throws on another value. */
  isQueryByKind(key: string): boolean {
    const v = Object.hasOwn(this.extra, key) ? this.extra[key] : undefined;
    const kind = rowKindOf(v);
    if (kind === null) {
      throw new DeclarationError(
        `${this.table} line ${this.row.line}: row kind (fields.${key}): expected one of ${KIND_WORDS.join(', ')}, found ${describeValue(v)}`,
      );
    }
    return kind === 'query';
  }

  text(part: DeclPart, field: string): string {
    const v = this.raw(field);
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (typeof v !== 'string')
      return this.fail(part, field, `expected text, found ${describeValue(v)}`);
    if (v.trim() === '') return this.fail(part, field, 'empty text');
    return v;
  }

  optional(part: DeclPart, field: string | null): string | null {
    if (field === null) return null;
    const v = this.raw(field);
    if (v === null || v === undefined || v === '') return null;
    return this.text(part, field);
  }

  ids(part: DeclPart, field: string): string[] {
    const v = this.raw(field);
    const list = Array.isArray(v) ? v : typeof v === 'string' || typeof v === 'number' ? [v] : null;
    if (list === null) return this.fail(part, field, `expected ids, found ${describeValue(v)}`);
    const ids = list.map((item) => {
      if (typeof item === 'string' && item.trim() !== '') return item;
      if (typeof item === 'number') return String(item);
      return this.fail(part, field, `expected an id, found ${describeValue(item)}`);
    });
    if (ids.length === 0) return this.fail(part, field, 'no gold memory id');
    return [...new Set(ids)];
  }
}

/** A query row holds text in the query field (a CSV's memory rows hold an empty cell there). */
function isQueryRow(reader: RowReader, decl: UserBenchmarkDecl): boolean {
  const v = reader.raw(decl.query.text);
  return (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';
}

/**
 * The memories and queries of `rows` under `decl`. A row is a query when its `type` or `kind` field
 * says so (row-kind.ts), or, in rows without one, when its query field holds text. Throws a
 * `DeclarationError` naming the table, the line and the part at the first row that does not fit:
 * an empty text, a missing id or gold, an id used twice, a gold id that names no memory, a kind
 * that is neither memory nor query.
 */
export function benchmarkRows(
  table: string,
  rows: readonly UserTableRow[],
  decl: UserBenchmarkDecl,
): UserBenchmarkRows {
  const memories: UserMemory[] = [];
  const queryRows: { reader: RowReader; query: UserQuery }[] = [];
  const seen = new Map<string, number>();
  const extras = rows.map(parsedFields);
  const byKind = kindKey(extras);
  if (byKind === null && decl.memory.text === decl.query.text) {
    throw new DeclarationError(
      `${table}: memory.text and query.text are both ${decl.query.text}: without a type or kind field, a row is a query when its query field has a value`,
    );
  }
  for (const [i, row] of rows.entries()) {
    const reader = new RowReader(table, row, extras[i]);
    if (byKind === null ? isQueryRow(reader, decl) : reader.isQueryByKind(byKind)) {
      const q = decl.query;
      const own = reader.raw(decl.memory.id);
      queryRows.push({
        reader,
        query: {
          id:
            (typeof own === 'string' && own.trim() !== '') || typeof own === 'number'
              ? String(own)
              : `line ${row.line}`,
          text: reader.text('query.text', q.text),
          gold: reader.ids('query.gold', q.gold),
          category: reader.optional('query.category', q.category),
          line: row.line,
        },
      });
      continue;
    }
    const m = decl.memory;
    const id = reader.text('memory.id', m.id);
    const before = seen.get(id);
    if (before !== undefined)
      reader.fail('memory.id', m.id, `"${id}" is also the id on line ${before}`);
    seen.set(id, row.line);
    memories.push({
      id,
      text: reader.text('memory.text', m.text),
      session: reader.optional('memory.session', m.session),
      date: reader.optional('memory.date', m.date),
      line: row.line,
    });
  }
  const queryLines = new Map<string, number>();
  for (const { reader, query } of queryRows) {
    // A query's id keys its row, its drill-down and its point on the map: two queries, two ids.
    const before = queryLines.get(query.id);
    if (before !== undefined) {
      reader.fail(
        'memory.id',
        decl.memory.id,
        `"${query.id}" is also the id of the query on line ${before}`,
      );
    }
    queryLines.set(query.id, query.line);
    const unknown = query.gold.find((g) => !seen.has(g));
    if (unknown !== undefined) {
      reader.fail('query.gold', decl.query.gold, `"${unknown}" names no memory of ${table}`);
    }
  }
  const split = byKind === null ? `a value in ${decl.query.text} (query.text)` : null;
  if (memories.length === 0) {
    throw new DeclarationError(
      `${table}: no memory: ${split ? `every row has ${split}` : `no row has fields.${byKind} memory`}`,
    );
  }
  if (queryRows.length === 0) {
    throw new DeclarationError(
      `${table}: no query: ${split ? `no row has ${split}` : `no row has fields.${byKind} query`}. A file of both kinds gives memories {id, text} and queries {query, gold, category}, or a type field (memory / query) on each row`,
    );
  }
  return { memories, queries: queryRows.map((q) => q.query) };
}

/**
 * How many `fields` keys are offered at most: a record with 10⁶ keys (Your data loads one) must
 * not put 10⁶ options in each of the declaration's selects. The usual names are offered anyway.
 */
export const MAX_FIELD_CHOICES = 500;

/** Every field the rows hold a value in: the columns first, then the `fields` keys (capped). */
export function fieldChoices(
  rows: readonly UserTableRow[],
  max: number = MAX_FIELD_CHOICES,
): string[] {
  const columns = TABLE_COLUMNS.filter((c) =>
    rows.some((r) => {
      const v = fieldOf(r, {}, c);
      return v !== null && v !== undefined;
    }),
  );
  const usual = new Set(
    Object.values(NAMES)
      .flat()
      .filter((n) => n.startsWith('fields.'))
      .map((n) => n.slice('fields.'.length)),
  );
  const keys = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(parsedFields(row))) {
      if (keys.size < max || usual.has(key)) keys.add(key);
    }
  }
  return [...columns, ...[...keys].map((k) => `fields.${k}`)];
}

const NAMES: Record<DeclPart, readonly string[]> = {
  'memory.text': ['memory'],
  'memory.id': ['fields.id', 'fields.memory_id', 'fields.mid', 'fields.key'],
  'memory.session': ['fields.session', 'fields.session_id', 'fields.conversation', 'conversation'],
  'memory.date': ['fields.date', 'fields.time', 'fields.timestamp', 'fields.session_date'],
  'query.text': ['query'],
  'query.gold': ['gold', 'fields.gold', 'fields.gold_ids', 'fields.evidence'],
  'query.category': ['fields.category', 'fields.type', 'fields.question_type', 'speaker'],
};

/**
 * The declaration the page starts from: for each part, the first usual name the rows hold. Given
 * rows split by a `type` or `kind` field, queries share the memories' text field when no field is
 * named query, and that field is no category.
 */
export function suggestDecl(
  choices: readonly string[],
  rows: readonly UserTableRow[] = [],
): UserBenchmarkDecl {
  const byKind = kindKey(rows.map(parsedFields));
  const offered = choices.filter((c) => byKind === null || c !== `fields.${byKind}`);
  const pick = (part: DeclPart): string | null =>
    NAMES[part].find((n) => offered.includes(n)) ?? null;
  const memoryText = pick('memory.text') ?? 'memory';
  return {
    version: DECL_VERSION,
    memory: {
      text: memoryText,
      id: pick('memory.id') ?? 'line',
      session: pick('memory.session'),
      date: pick('memory.date'),
    },
    query: {
      text: pick('query.text') ?? (byKind === null ? 'query' : memoryText),
      gold: pick('query.gold') ?? 'gold',
      category: pick('query.category'),
    },
  };
}

/** "memory.text ← memory, memory.id ← fields.id, …": the declaration in one line. */
export function describeDecl(decl: UserBenchmarkDecl): string {
  return DECL_PARTS.flatMap((p) => {
    const f = partField(decl, p);
    return f === null ? [] : [`${p} ← ${f}`];
  }).join(', ');
}

/** The table's rows as a declaration reads them. */
export async function readUserTableRows(
  reader: QueryRunner,
  table: string,
): Promise<UserTableRow[]> {
  const rows = await reader.run(userRecordsQuery(table));
  return rows.map(tableRow);
}

/** Checks `decl` against every row of `table` (throws naming the line and the part). */
export async function checkDeclaration(
  reader: QueryRunner,
  table: string,
  decl: UserBenchmarkDecl,
): Promise<UserBenchmarkRows> {
  return benchmarkRows(table, await readUserTableRows(reader, table), decl);
}
