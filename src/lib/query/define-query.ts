// A query is a value: its name, its SQL with bound parameters, and the decoder its rows must pass.
// Features define theirs next to themselves; pages only ask for them (useQuery).
import type { SqlParam } from './sql-values.ts';
import type { RowDecoder } from './row-schema.ts';
import type { SqlText } from './sql.ts';

export interface BoundQuery<T> {
  /** Says what the rows are, in error messages. */
  readonly name: string;
  readonly sql: string;
  readonly params: readonly SqlParam[];
  readonly decode: RowDecoder<T>;
  /** Equal for the same SQL and parameters: the cache key. */
  readonly key: string;
}

export type QueryDef<T, A extends unknown[]> = (...args: A) => BoundQuery<T>;

export function bindQuery<T>(name: string, text: SqlText, decode: RowDecoder<T>): BoundQuery<T> {
  return {
    name,
    sql: text.sql,
    params: text.params,
    decode,
    key: JSON.stringify([text.sql, text.params]),
  };
}

/** `defineQuery('inmind task', (id: number) => sql\`… = ${id}\`, rowSchema({…}))`. */
export function defineQuery<T, A extends unknown[]>(
  name: string,
  build: (...args: A) => SqlText,
  decode: RowDecoder<T>,
): QueryDef<T, A> {
  return (...args: A) => bindQuery(name, build(...args), decode);
}
