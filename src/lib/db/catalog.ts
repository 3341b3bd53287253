import { REGISTERED_DIR, type SqlEngine, type SqlParam, type SqlRow } from './engine.ts';
import type { BoundQuery } from '../query/define-query.ts';
import { tableNamesQuery, visibleTables } from '../query/catalog-queries.ts';
import { quoteIdent, quoteString } from '../query/sql-text.ts';
import { errorMessage, FileError } from '../common/error-message.ts';

export class LoadError extends FileError {
  override name = 'LoadError';
}

let stagingCounter = 0;

/**
 * Tables are replaced only once their new contents are fully in DuckDB, so a failed load never
 * loses what was loaded before.
 */
export class Catalog {
  /** Every table and view this catalog wrote (lower-cased): the console never changes them. */
  readonly written = new Set<string>();

  constructor(readonly engine: SqlEngine) {}

  query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]> {
    return this.engine.query(sql, params);
  }

  /** A defined query's rows, decoded (scripts and tests; pages go through the QueryClient). */
  async run<T>(query: BoundQuery<T>): Promise<T[]> {
    const rows = await this.engine.query(query.sql, query.params);
    return rows.map((row, i) => query.decode(row, i));
  }

  async loadRows(table: string, rows: readonly object[], file: string): Promise<number> {
    if (rows.length === 0) throw new LoadError(file, `no rows for table ${table}`);
    const staging = `__staging_${table}_${++stagingCounter}`;
    const name = `${REGISTERED_DIR}${staging}.json`;
    try {
      await this.engine.registerText(name, JSON.stringify(rows));
      await this.engine.insertJsonFromPath(name, staging);
      await this.swapIn(table, `SELECT * FROM ${quoteIdent(staging)}`);
    } catch (err) {
      throw err instanceof LoadError ? err : new LoadError(file, errorMessage(err));
    } finally {
      await this.engine.query(`DROP TABLE IF EXISTS ${quoteIdent(staging)}`).catch(() => []);
      await this.engine.dropFile(name).catch(() => undefined);
    }
    return rows.length;
  }

  /** `select` reads the registered CSV through the `{file}` placeholder, e.g. to cast columns. */
  async loadCsvText(table: string, text: string, file: string, select = 'SELECT * FROM {file}') {
    const name = `${REGISTERED_DIR}__csv_${table}_${++stagingCounter}.csv`;
    try {
      await this.engine.registerText(name, text);
      const reader = `read_csv(${quoteString(name)}, header = true, all_varchar = true)`;
      await this.swapIn(table, select.replace('{file}', reader));
    } catch (err) {
      throw new LoadError(file, errorMessage(err));
    } finally {
      await this.engine.dropFile(name).catch(() => undefined);
    }
    const [row] = await this.engine.query(`SELECT count(*) AS n FROM ${quoteIdent(table)}`);
    return Number(row.n);
  }

  async createView(view: string, select: string): Promise<void> {
    this.written.add(view.toLowerCase());
    await this.engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(view)} AS ${select}`);
  }

  async tableNames(): Promise<string[]> {
    return visibleTables(await this.run(tableNamesQuery()));
  }

  async count(table: string): Promise<number> {
    const [row] = await this.engine.query(`SELECT count(*) AS n FROM ${quoteIdent(table)}`);
    return Number(row.n);
  }

  private async swapIn(table: string, select: string): Promise<void> {
    this.written.add(table.toLowerCase());
    await this.engine.query(`CREATE OR REPLACE TABLE ${quoteIdent(table)} AS ${select}`);
  }
}
