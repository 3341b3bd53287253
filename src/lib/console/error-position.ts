// DuckDB points at an error by quoting the line (`LINE 3: …`) with a caret under the spot; long
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

export function errorPosition(message: string, sql: string): ErrorPosition | null {
  const m = POINTER.exec(message);
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
