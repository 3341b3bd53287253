// The SQL console's run state: one statement at a time on the console's own DuckDB connection
// (opened again when DuckDB is restarted), its result or error, cancelling, and the history.
import type { Catalog } from '../db/catalog.ts';
import type { StatementRunner } from '../db/engine.ts';
import { ConsoleError, runConsoleSql, type ConsoleResult } from '../console/console-runner.ts';
import {
  addToHistory,
  clearHistory,
  readHistory,
  type HistoryEntry,
  type HistoryStorage,
} from '../console/history.ts';
import { mayChangeTables } from '../console/statements.ts';
import { errorMessage } from '../common/error-message.ts';
import type { AppServices } from './services.svelte.ts';

export class ConsoleSession {
  running = $state(false);
  cancelling = $state(false);
  result: ConsoleResult | null = $state.raw(null);
  error: ConsoleError | null = $state.raw(null);
  history: HistoryEntry[] = $state.raw([]);

  private connection: { catalog: Catalog; runner: Promise<StatementRunner> } | null = null;

  constructor(
    private readonly services: AppServices,
    private readonly storage: HistoryStorage,
  ) {
    this.history = readHistory(storage);
  }

  get ready(): boolean {
    return this.services.catalog !== null;
  }

  private runnerFor(catalog: Catalog): Promise<StatementRunner> {
    if (this.connection?.catalog !== catalog) {
      const old = this.connection;
      this.connection = { catalog, runner: catalog.engine.openStatementRunner() };
      void old?.runner.then((r) => r.close()).catch(() => undefined);
    }
    return this.connection.runner;
  }

  async run(sql: string): Promise<void> {
    const catalog = this.services.catalog;
    if (this.running || !catalog || !sql.trim()) return;
    this.running = true;
    this.error = null;
    let rows: number | null = null;
    try {
      this.result = await runConsoleSql(await this.runnerFor(catalog), sql);
      rows = this.result.rows.length;
    } catch (err) {
      this.result = null;
      this.error =
        err instanceof ConsoleError ? err : new ConsoleError(errorMessage(err), null, false);
    } finally {
      this.running = false;
      this.cancelling = false;
    }
    this.history = addToHistory(this.storage, { sql, rows });
    // Tables the text created, replaced or dropped: every page's queries ask again.
    if (mayChangeTables(sql)) this.services.dataChanged();
  }

  /** Asks DuckDB to stop the statement in flight (duckdb-wasm's cancelSent on the pending query). */
  async cancel(): Promise<void> {
    if (!this.running || !this.connection || this.cancelling) return;
    this.cancelling = true;
    const runner = await this.connection.runner;
    await runner.cancel().catch(() => false);
  }

  clearHistory(): void {
    this.history = clearHistory(this.storage);
  }

  /** Leaving the page stops what still runs, then closes the connection. */
  close(): void {
    const connection = this.connection;
    this.connection = null;
    const running = this.running;
    void connection?.runner
      .then(async (r) => {
        if (running) await r.cancel().catch(() => false);
        await r.close();
      })
      .catch(() => undefined);
  }
}
