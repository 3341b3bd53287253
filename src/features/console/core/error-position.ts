// duckdb-wasm in a browser hands errors over as JSON (`exception_type`, `exception_message`,
// `position`: an offset into the text); in Node as text. Either way DuckDB points at an error by quoting the line (`LINE 3: …`) with a caret under the spot; long
// lines are cut to about 80 characters around it, marked with `...`. The quote is found again in
// the reader's text to give the position as line, column and offset.

export interface ErrorPosition {
  /** 1-based, as DuckDB counts. */
  line: number;
  /** 1-based. */
  column: number;
  /** Offsets into the text: the character (or word) the caret points at. */
  from: number;
  to: number;
}

const POINTER = /LINE (\d+): ([^\n]*)\n( *)\^/;

export interface DuckDbError {
  /** `Parser Error: syntax error at or near "x"` and DuckDB's quote of the line. */
  text: string;
  /** Offset into the statement text, when DuckDB gave one. */
  offset: number | null;
}

function field(fields: Map<string, unknown>, name: string): string {
  const v = fields.get(name);
  return typeof v === 'string' ? v : '';
}

export function readDuckDbError(message: string): DuckDbError {
  if (!message.trimStart().startsWith('{')) return { text: message, offset: null };
  try {
    const parsed: unknown = JSON.parse(message);
    if (typeof parsed !== 'object' || parsed === null) return { text: message, offset: null };
    const fields = new Map(Object.entries(parsed));
    const type = field(fields, 'exception_type');
    const detail = field(fields, 'exception_message');
    if (!detail) return { text: message, offset: null };
    const position = Number.parseInt(field(fields, 'position'), 10);
    return {
      text: type ? `${type} Error: ${detail}` : detail,
      offset: Number.isFinite(position) ? position : null,
    };
  } catch {
    return { text: message, offset: null };
  }
}

function atOffset(sql: string, offset: number): ErrorPosition {
  const at = Math.min(Math.max(0, offset), sql.length);
  const before = sql.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = sql.indexOf('\n', at) < 0 ? sql.length : sql.indexOf('\n', at);
  const word = /^[\w$]+/.exec(sql.slice(at, lineEnd))?.[0].length ?? 1;
  return {
    line: before.split('\n').length,
    column: at - lineStart + 1,
    from: at,
    to: Math.min(at + word, lineEnd),
  };
}

export function errorPosition(message: string, sql: string): ErrorPosition | null {
  const error = readDuckDbError(message);
  if (error.offset !== null && error.offset <= sql.length) return atOffset(sql, error.offset);
  const m = POINTER.exec(error.text);
  if (!m) return null;
  const line = Number(m[1]);
  const lines = sql.split('\n');
  if (line < 1 || line > lines.length) return null;
  let quote = m[2];
  let caret = m[3].length - `LINE ${m[1]}: `.length;
  if (quote.startsWith('...')) {
    quote = quote.slice(3);
    caret -= 3;
  }
  if (quote.endsWith('...')) quote = quote.slice(0, -3);
  const text = lines[line - 1];
  const found = text.indexOf(quote);
  const column0 = Math.min(Math.max(0, (found < 0 ? 0 : found) + caret), text.length);
  const lineStart = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const word = /^[\w$]+/.exec(text.slice(column0))?.[0].length ?? 1;
  const from = lineStart + column0;
  return { line, column: column0 + 1, from, to: Math.min(from + word, lineStart + text.length) };
}

export function describePosition(p: ErrorPosition): string {
  return `line ${p.line}, column ${p.column}`;
}
