// What the console lets a statement do. Queries run as they are; a statement that creates,
// changes or drops a table runs only on the console's own tables, once the reader confirms;
// MemLens's tables (the papers' and benchmarks' data every page reads) and the tables Your data
// keeps are never changed from here, and statements that reach files, extensions or settings
// are refused. DuckDB's locked configuration (db/engine.ts) stands behind this.
import { isUserTable } from '../../../lib/query/user-tables.ts';
import { READ_ONLY_KEYWORDS, splitStatements, type Statement, type Token } from './statements.ts';

export interface TableOwnership {
  /** Every table and view DuckDB holds now, lower-cased. */
  existing: ReadonlySet<string>;
  /** Those the console created in this tab: the reader may change or drop them. */
  consoleOwned: ReadonlySet<string>;
  /** MemLens's own tables, loaded or not yet (lower-cased): never the console's. */
  builtIn: ReadonlySet<string>;
}

export type Verdict =
  | { kind: 'read' }
  | { kind: 'write'; table: string; creates: string | null; drops: boolean }
  | { kind: 'refused'; reason: string };

export interface Judgement {
  statements: { statement: Statement; verdict: Verdict }[];
  /** Why nothing runs (the first refused statement), or null. */
  refused: string | null;
  /** The console's tables the text creates, changes or drops (asks for a confirmation). */
  writes: string[];
}

const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'CREATE', 'DROP', 'ALTER']);
const WRITE_WORDS_IN_QUERY = new Set([...WRITE_WORDS, 'TRUNCATE', 'COPY', 'ATTACH']);
const QUALIFIERS = new Set(['memory', 'main', 'temp']);

const REFUSED_FAMILIES: [string[], string][] = [
  [
    ['ATTACH', 'DETACH', 'USE'],
    'the console works on the tables of this tab only; it attaches no other database',
  ],
  [
    ['COPY', 'EXPORT', 'IMPORT'],
    'the console writes and reads no files (CSV and Parquet below export a result)',
  ],
  [
    ['INSTALL', 'LOAD', 'FORCE', 'UPDATE EXTENSIONS'],
    'MemLens runs DuckDB without extensions: nothing is downloaded or loaded',
  ],
  [
    ['SET', 'RESET', 'PRAGMA', 'CALL'],
    "DuckDB's settings are fixed by MemLens (no file or network access, no extensions)",
  ],
];

function familyReason(keyword: string): string {
  for (const [words, why] of REFUSED_FAMILIES) if (words.includes(keyword)) return why;
  return 'the console runs queries, and creates, changes or drops tables of its own';
}

class Cursor {
  i = 0;
  constructor(readonly tokens: readonly Token[]) {}
  word(...accept: string[]): string | null {
    const t = this.tokens[this.i];
    if (t?.kind !== 'word') return null;
    const w = t.value.toUpperCase();
    if (accept.length && !accept.includes(w)) return null;
    this.i++;
    return w;
  }
  words(...seq: string[]): boolean {
    const at = this.i;
    for (const w of seq) {
      if (!this.word(w)) {
        this.i = at;
        return false;
      }
    }
    return true;
  }
  /** A table name, maybe qualified by `memory`, `main` or `temp`; lower-cased; null if none. */
  name(): string | null {
    const parts: string[] = [];
    for (;;) {
      const t = this.tokens[this.i];
      if (t?.kind !== 'word' && t?.kind !== 'quoted') return null;
      parts.push(t.value.toLowerCase());
      this.i++;
      const dot = this.tokens[this.i];
      if (dot?.kind !== 'punct' || dot.value !== '.') break;
      this.i++;
    }
    if (!parts.slice(0, -1).every((q) => QUALIFIERS.has(q))) return null;
    return parts.at(-1) ?? null;
  }
  rest(): Token[] {
    return this.tokens.slice(this.i);
  }
}

interface Target {
  table: string | null;
  creates: string | null;
  drops: boolean;
  problem?: string;
}

function createTarget(c: Cursor): Target {
  c.words('OR', 'REPLACE');
  c.word('TEMP', 'TEMPORARY');
  if (!c.word('TABLE', 'VIEW')) {
    return {
      table: null,
      creates: null,
      drops: false,
      problem: 'the console creates only tables and views',
    };
  }
  c.words('IF', 'NOT', 'EXISTS');
  const table = c.name();
  return { table, creates: table, drops: false };
}

function dropTarget(c: Cursor): Target {
  if (!c.word('TABLE', 'VIEW')) {
    return {
      table: null,
      creates: null,
      drops: false,
      problem: 'the console drops only its own tables and views',
    };
  }
  c.words('IF', 'EXISTS');
  const table = c.name();
  const rest = c.rest();
  const plain =
    rest.length === 0 ||
    (rest.length === 1 && rest[0].kind === 'word' && rest[0].value.toUpperCase() === 'RESTRICT');
  if (!plain) {
    return {
      table: null,
      creates: null,
      drops: true,
      problem: 'a DROP names one table and no CASCADE',
    };
  }
  return { table, creates: null, drops: true };
}

function alterTarget(c: Cursor): Target {
  if (!c.word('TABLE', 'VIEW')) {
    return {
      table: null,
      creates: null,
      drops: false,
      problem: 'the console alters only its own tables and views',
    };
  }
  c.words('IF', 'EXISTS');
  const table = c.name();
  let creates: string | null = null;
  if (c.words('RENAME', 'TO')) {
    creates = c.name();
    if (!creates) return { table: null, creates: null, drops: false };
  }
  return { table, creates, drops: creates !== null };
}

function writeTarget(s: Statement): Target | null {
  const c = new Cursor(s.tokens);
  const keyword = c.word();
  switch (keyword) {
    case 'CREATE':
      return createTarget(c);
    case 'DROP':
      return dropTarget(c);
    case 'ALTER':
      return alterTarget(c);
    case 'INSERT':
      if (!c.words('OR', 'REPLACE')) c.words('OR', 'IGNORE');
      return { table: c.word('INTO') ? c.name() : null, creates: null, drops: false };
    case 'UPDATE':
      return { table: c.name(), creates: null, drops: false };
    case 'DELETE':
      return { table: c.word('FROM') ? c.name() : null, creates: null, drops: false };
    case 'TRUNCATE':
      c.word('TABLE');
      return { table: c.name(), creates: null, drops: false };
    default:
      return null;
  }
}

/** Why the console may not change `table`, or null when it may. */
export function protectedReason(table: string, tables: TableOwnership): string | null {
  if (table.startsWith('__')) return `${table} is MemLens's own bookkeeping`;
  const mine = tables.consoleOwned.has(table) && !tables.builtIn.has(table);
  if (!mine && isUserTable(table)) {
    return tables.existing.has(table)
      ? `${table} was loaded on the Your data page: remove or reload it there, so its saved copy stays in step`
      : 'names starting with user_ are kept for the tables Your data loads';
  }
  if (tables.builtIn.has(table) || (tables.existing.has(table) && !mine)) {
    return `${table} is one of MemLens's own tables, which every page reads: the console does not change it (to work on a copy: CREATE TABLE my_${table} AS SELECT * FROM ${table})`;
  }
  return null;
}

function readVerdict(s: Statement): Verdict {
  const inner =
    s.keyword === 'EXPLAIN' &&
    s.tokens[1]?.kind === 'word' &&
    s.tokens[1].value.toUpperCase() === 'ANALYZE'
      ? s.tokens.slice(2)
      : s.tokens;
  const first = inner[0]?.kind === 'word' ? inner[0].value.toUpperCase() : '';
  const writes = inner.find(
    (t) => t.kind === 'word' && WRITE_WORDS_IN_QUERY.has(t.value.toUpperCase()),
  );
  if (!READ_ONLY_KEYWORDS.has(first) || writes) {
    return {
      kind: 'refused',
      reason: 'a query that also writes is not run here: write it as a statement of its own',
    };
  }
  return { kind: 'read' };
}

export function judgeStatement(s: Statement, tables: TableOwnership): Verdict {
  if (READ_ONLY_KEYWORDS.has(s.keyword)) return readVerdict(s);
  if (!WRITE_WORDS.has(s.keyword) && s.keyword !== 'TRUNCATE') {
    return {
      kind: 'refused',
      reason: familyReason(s.keyword),
    };
  }
  const target = writeTarget(s);
  if (!target || target.problem) {
    return { kind: 'refused', reason: target?.problem ?? familyReason(s.keyword) };
  }
  if (!target.table) {
    return { kind: 'refused', reason: 'the console could not tell which table this changes' };
  }
  for (const name of [target.table, target.creates]) {
    const why = name ? protectedReason(name, tables) : null;
    if (why) return { kind: 'refused', reason: why };
  }
  return { kind: 'write', table: target.table, creates: target.creates, drops: target.drops };
}

/** Judges each statement in order, as if the ones before it had run. */
export function judgeSql(sql: string, tables: TableOwnership): Judgement {
  const existing = new Set(tables.existing);
  const owned = new Set(tables.consoleOwned);
  const statements: Judgement['statements'] = [];
  const writes = new Set<string>();
  let refused: string | null = null;
  const all = splitStatements(sql);
  all.forEach((statement, i) => {
    const verdict = judgeStatement(statement, {
      existing,
      consoleOwned: owned,
      builtIn: tables.builtIn,
    });
    statements.push({ statement, verdict });
    if (verdict.kind === 'refused') {
      const which =
        all.length > 1 ? `statement ${i + 1} (${statement.keyword})` : statement.keyword;
      refused ??= `Not run: ${which} — ${verdict.reason}.`;
    } else if (verdict.kind === 'write') {
      writes.add(verdict.table);
      if (verdict.creates) {
        owned.add(verdict.creates);
        existing.add(verdict.creates);
        writes.add(verdict.creates);
      }
      if (verdict.drops && verdict.creates !== verdict.table) existing.delete(verdict.table);
    }
  });
  return { statements, refused, writes: [...writes] };
}

/** A shared link runs by itself only when it is one query that reads; otherwise why not. */
export function linkRunBlocker(sql: string): string | null {
  const all = splitStatements(sql);
  if (all.length === 0) return null;
  const none = {
    existing: new Set<string>(),
    consoleOwned: new Set<string>(),
    builtIn: new Set<string>(),
  };
  if (all.length === 1 && judgeStatement(all[0], none).kind === 'read') return null;
  const what =
    all.length > 1 ? `${all.length} statements` : `a ${all[0].keyword || 'statement'} statement`;
  return `This link holds ${what}, so it was not run by itself: a link runs on opening only when it is a single query that reads. Read it, then press Run if you want it.`;
}

/** Per statement, in order, the tables it was judged to create, change or drop (none: it reads). */
export function statementWrites(judgement: Judgement): string[][] {
  return judgement.statements.map(({ verdict }) => {
    if (verdict.kind !== 'write') return [];
    const { table, creates } = verdict;
    return creates && creates !== table ? [table, creates] : [table];
  });
}

/** What the console does with a judged text: refuse it, ask first, or run it. */
export type RunPlan =
  | { kind: 'refused'; reason: string }
  | { kind: 'confirm'; tables: string[] }
  | { kind: 'run'; writes: string[][] };

export function planRun(judgement: Judgement, confirmed: boolean): RunPlan {
  if (judgement.refused) return { kind: 'refused', reason: judgement.refused };
  if (judgement.writes.length > 0 && !confirmed)
    return { kind: 'confirm', tables: judgement.writes };
  return { kind: 'run', writes: statementWrites(judgement) };
}
