// SQL text is built from trusted fragments only; every value a user, a URL or a file supplies is
// a bound parameter, every name goes through quoteIdent.
import type { SqlParam } from './sql-values.ts';
import { quoteIdent } from './sql-text.ts';

export { containsLike } from './sql-text.ts';

export interface SqlText {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

const FRAGMENT = Symbol('sql-fragment');

export interface SqlFragment extends SqlText {
  readonly [FRAGMENT]: true;
}

/** What may appear in `${…}`: a value (bound), a list of values (`?, ?, …`), or a fragment. */
export type SqlPart = SqlParam | readonly SqlParam[] | SqlFragment;

function fragment(sql: string, params: readonly SqlParam[] = []): SqlFragment {
  return { sql, params, [FRAGMENT]: true };
}

function isFragment(part: SqlPart): part is SqlFragment {
  return typeof part === 'object' && part !== null && FRAGMENT in part;
}

/** `sql\`… WHERE id = ${id}\`` → `{ sql: '… WHERE id = ?', params: [id] }`. */
export function sql(strings: TemplateStringsArray, ...parts: SqlPart[]): SqlFragment {
  let text = strings[0];
  const params: SqlParam[] = [];
  parts.forEach((part, i) => {
    if (isFragment(part)) {
      text += part.sql;
      params.push(...part.params);
    } else if (Array.isArray(part)) {
      const list: readonly SqlParam[] = part;
      // An empty list matches nothing, as `IN ()` would if DuckDB allowed it.
      text += list.length === 0 ? 'NULL' : list.map(() => '?').join(', ');
      params.push(...list);
    } else {
      text += '?';
      params.push(part as SqlParam);
    }
    text += strings[i + 1];
  });
  return fragment(text, params);
}

/** A table or column name, quoted. */
export function ident(name: string): SqlFragment {
  return fragment(quoteIdent(name));
}

/** Text the program wrote (a constant, a choice among fixed options): never user input. */
export function trusted(text: string): SqlFragment {
  return fragment(text);
}

/** Fragments joined by `separator` (e.g. ' AND '), params in order. */
export function joinSql(parts: readonly SqlText[], separator: string): SqlFragment {
  return fragment(
    parts.map((p) => p.sql).join(separator),
    parts.flatMap((p) => p.params),
  );
}
