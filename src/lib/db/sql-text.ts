export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function quoteString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A LIKE pattern matching `text` literally anywhere (with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return quoteString(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
