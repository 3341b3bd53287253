// One client answers every page's queries: it caches rows per data version (a reload of the
// tables empties it) and shares a query already in flight, so two charts of one SQL ask once.
import type { SqlRow } from './sql-values.ts';
import type { BoundQuery } from './define-query.ts';
import { RowDecodeError } from './row-schema.ts';

export interface QuerySource {
  query(sql: string, params?: BoundQuery<unknown>['params']): Promise<SqlRow[]>;
}

export class QueryError extends Error {
  constructor(
    readonly queryName: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = 'QueryError';
  }
}

const MAX_CACHED = 200;

/**
 * How features read: a query value in, its decoded rows out. The page's is the QueryClient (cached,
 * shared, invalidated with the data); the CLI and tests run them on their catalog (`Catalog.run`).
 */
export interface QueryRunner {
  run<T>(query: BoundQuery<T>): Promise<T[]>;
}

export class QueryClient implements QueryRunner {
  private source: QuerySource | null = null;
  private rows = new Map<string, Promise<SqlRow[]>>();

  /** A new source (or the same tables reloaded) drops every cached answer. */
  setSource(source: QuerySource | null): void {
    this.source = source;
    this.rows.clear();
  }

  invalidate(): void {
    this.rows.clear();
  }

  get ready(): boolean {
    return this.source !== null;
  }

  async run<T>(query: BoundQuery<T>): Promise<T[]> {
    const rows = await this.fetchRows(query);
    try {
      return rows.map((row, i) => query.decode(row, i));
    } catch (err) {
      const detail = err instanceof RowDecodeError ? err.message : String(err);
      throw new QueryError(query.name, `${query.name}: unexpected rows: ${detail}`, { cause: err });
    }
  }

  private fetchRows(query: BoundQuery<unknown>): Promise<SqlRow[]> {
    const source = this.source;
    if (!source) return Promise.reject(new QueryError(query.name, 'SQL is not ready yet'));
    const cached = this.rows.get(query.key);
    if (cached) return cached;
    const pending = source.query(query.sql, query.params);
    this.rows.set(query.key, pending);
    // A failed query is asked again next time, not answered from the cache.
    pending.catch(() => {
      if (this.rows.get(query.key) === pending) this.rows.delete(query.key);
    });
    if (this.rows.size > MAX_CACHED) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
    return pending;
  }
}
