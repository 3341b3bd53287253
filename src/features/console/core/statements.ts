// Just enough of DuckDB's lexical rules to tell statements, strings and comments apart: the
// console splits the reader's text into statements, asks DuckDB for the last one's column types,
// and judges each statement before it runs (guard.ts). Strings cover '…' (with ''), E'…' (with
// backslash escapes) and $tag$…$tag$, so no text DuckDB reads as code hides inside one here.

export type Token =
  | { kind: 'word'; value: string }
  | { kind: 'quoted'; value: string }
  | { kind: 'string' }
  | { kind: 'punct'; value: string };

export interface Statement {
  /** The statement as written (comments inside kept), trimmed, without its `;`. */
  text: string;
  /** Where `text` starts in the whole text. */
  start: number;
  /** Its first keyword, upper-cased (`SELECT`, `CREATE`…), comments skipped. */
  keyword: string;
  /** Its code, comments and string contents left out. */
  tokens: Token[];
}

/** End of a '…' string starting at `i` (the quote); backslashes escape when `escapes`. */
function stringEnd(sql: string, i: number, escapes: boolean): number {
  let j = i + 1;
  while (j < sql.length) {
    if (escapes && sql[j] === '\\') j += 2;
    else if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
    else if (sql[j] === "'") return j + 1;
    else j++;
  }
  return sql.length;
}

/** End of a "…" quoted name starting at `i`, and the name. */
function quotedEnd(sql: string, i: number): [number, string] {
  let j = i + 1;
  let name = '';
  while (j < sql.length) {
    if (sql[j] === '"' && sql[j + 1] === '"') {
      name += '"';
      j += 2;
    } else if (sql[j] === '"') return [j + 1, name];
    else name += sql[j++];
  }
  return [sql.length, name];
}

const DOLLAR_TAG = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/;
const WORD = /^[A-Za-z_][A-Za-z0-9_$]*/;

interface Lexed {
  token: Token | null;
  end: number;
}

function lexAt(sql: string, i: number): Lexed {
  const c = sql[i];
  const next = sql[i + 1];
  if (c === '-' && next === '-') {
    const end = sql.indexOf('\n', i);
    return { token: null, end: end < 0 ? sql.length : end };
  }
  if (c === '/' && next === '*') {
    const end = sql.indexOf('*/', i + 2);
    return { token: null, end: end < 0 ? sql.length : end + 2 };
  }
  if (c === "'") return { token: { kind: 'string' }, end: stringEnd(sql, i, false) };
  if ((c === 'E' || c === 'e') && next === "'") {
    return { token: { kind: 'string' }, end: stringEnd(sql, i + 1, true) };
  }
  if (c === '"') {
    const [end, value] = quotedEnd(sql, i);
    return { token: { kind: 'quoted', value }, end };
  }
  const rest = sql.slice(i, i + 200);
  const tag = c === '$' ? DOLLAR_TAG.exec(rest) : null;
  if (tag) {
    const close = sql.indexOf(tag[0], i + tag[0].length);
    return { token: { kind: 'string' }, end: close < 0 ? sql.length : close + tag[0].length };
  }
  const word = WORD.exec(rest);
  if (word) return { token: { kind: 'word', value: word[0] }, end: i + word[0].length };
  if (/\s/.test(c)) return { token: null, end: i + 1 };
  return { token: { kind: 'punct', value: c }, end: i + 1 };
}

/** Statements in `sql`, in order; text that is only comments or blanks holds none. */
export function splitStatements(sql: string): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  let tokens: Token[] = [];
  const flush = (end: number) => {
    if (tokens.length > 0) {
      const first = tokens[0];
      const keyword = first.kind === 'word' ? first.value.toUpperCase() : '';
      const raw = sql.slice(start, end);
      const text = raw.trim();
      out.push({ text, start: start + raw.length - raw.trimStart().length, keyword, tokens });
    }
    tokens = [];
  };
  let i = 0;
  while (i < sql.length) {
    const { token, end } = lexAt(sql, i);
    if (token?.kind === 'punct' && token.value === ';') {
      flush(i);
      start = end;
    } else if (token) tokens.push(token);
    i = end;
  }
  flush(sql.length);
  return out;
}

/** The text holds at least one statement (a chart's `-- computed in the browser` does not). */
export function hasStatement(sql: string): boolean {
  return splitStatements(sql).length > 0;
}

/** Statements whose result is a table to read; anything else may create, change or drop tables. */
export const QUERY_KEYWORDS = new Set([
  'SELECT',
  'WITH',
  'FROM',
  'VALUES',
  'TABLE',
  'PIVOT',
  'UNPIVOT',
]);
export const READ_ONLY_KEYWORDS = new Set([
  ...QUERY_KEYWORDS,
  'DESCRIBE',
  'SHOW',
  'EXPLAIN',
  'SUMMARIZE',
]);

export function mayChangeTables(sql: string): boolean {
  return splitStatements(sql).some((s) => !READ_ONLY_KEYWORDS.has(s.keyword));
}

/**
 * `DESCRIBE` of the last statement when it is a query, so its columns get DuckDB's own type
 * names; null for anything else (DESCRIBE of an INSERT would not just describe).
 */
export function describeSql(sql: string): string | null {
  const last = splitStatements(sql).at(-1);
  return last && QUERY_KEYWORDS.has(last.keyword) ? `DESCRIBE ${last.text}` : null;
}
