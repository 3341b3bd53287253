// The one place user, URL and file text becomes SQL text. Every value passes quoteString and every
// name quoteIdent; both are tested with quotes, NUL, newlines, Unicode and 10k-character input.

/** A double-quoted identifier; NUL cannot be in a DuckDB name, so it becomes U+FFFD (and matches no table). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('\u0000', '\uFFFD').replaceAll('"', '""')}"`;
}

/** A string literal; NUL ends a literal in DuckDB's parser, so it is spliced in with chr(0). */
export function quoteString(value: string): string {
  const quote = (part: string) => `'${part.replaceAll("'", "''")}'`;
  if (!value.includes('\u0000')) return quote(value);
  return `(${value.split('\u0000').map(quote).join(' || chr(0) || ')})`;
}

/** The LIKE pattern (a value to bind) matching `text` literally anywhere, with ESCAPE '\'. */
export function containsLike(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The same pattern as a string literal. */
export function containsPattern(text: string): string {
  return quoteString(containsLike(text));
}
