// Just enough of SQL's lexical rules to tell statements, strings and comments apart: the console
// splits the reader's text into statements, asks DuckDB for the last one's column types, and
// knows which text may have changed the tables.

export interface Statement {
  /** The statement as written (comments inside kept), trimmed, without its `;`. */
  text: string;
  /** Its first keyword, upper-cased (`SELECT`, `CREATE`…), comments skipped. */
  keyword: string;
}

/** Statements in `sql`, in order; text that is only comments or blanks holds none. */
export function splitStatements(sql: string): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  let code = '';
  const flush = (end: number) => {
    const text = sql.slice(start, end).trim();
    const keyword = /^[A-Za-z_]+/.exec(code.trim())?.[0].toUpperCase() ?? '';
    if (code.trim() !== '') out.push({ text, keyword });
    code = '';
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      code += ' ';
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      code += ' ';
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      code += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === ';') {
      flush(i);
      i++;
      start = i;
    } else {
      code += c;
      i++;
    }
  }
  flush(sql.length);
  return out;
}

/** The text holds at least one statement (a chart's `-- computed in the browser` does not). */
export function hasStatement(sql: string): boolean {
  return splitStatements(sql).length > 0;
}

/** Statements whose result is a table to read; anything else may create, change or drop tables. */
const QUERY_KEYWORDS = new Set(['SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE', 'PIVOT', 'UNPIVOT']);
const READ_ONLY_KEYWORDS = new Set([...QUERY_KEYWORDS, 'DESCRIBE', 'SHOW', 'EXPLAIN', 'SUMMARIZE']);

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
