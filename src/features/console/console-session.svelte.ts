// The SQL console's run state: one statement at a time on the console's own DuckDB connection
// (opened again when DuckDB is restarted), its result or error, cancelling, and the history.
import type { Catalog } from '../../lib/db/catalog.ts';
import { StatementCancelledError, type StatementRunner } from '../../lib/db/engine.ts';
import {
  ConsoleError,
  RESULT_CAP,
  runConsoleSql,
  type ConsoleResult,
} from './core/console-runner.ts';
import {
  addToHistory,
  clearHistory,
  readHistory,
  type HistoryEntry,
  type HistoryStorage,
} from './core/history.ts';
import { mayChangeTables } from './core/statements.ts';
import { judgeSql, planRun, type Judgement, type TableOwnership } from './core/guard.ts';
import { errorMessage } from '../../lib/common/error-message.ts';
import { benchmarkTables } from '../../lib/benchmarks/registry.ts';
import type { AppServices } from '../../lib/app/services.svelte.ts';

/** The tables each DuckDB's console created (a restarted DuckDB starts with none). */
const consoleTables = new WeakMap<Catalog, Set<string>>();

function ownedBy(catalog: Catalog): Set<string> {
  let owned = consoleTables.get(catalog);
  if (!owned) consoleTables.set(catalog, (owned = new Set()));
  return owned;
}

/** Every benchmark's tables, loaded in this tab or not. */
const BENCHMARK_TABLES = benchmarkTables();

async function ownership(
  runner: StatementRunner,
  catalog: Catalog,
  signal: AbortSignal,
): Promise<TableOwnership> {
  const { rows } = await runner.run(
    'SELECT DISTINCT lower(table_name) AS name FROM information_schema.tables',
    1_000_000,
    signal,
  );
  return {
    existing: new Set(rows.map((r) => String(r.name))),
    consoleOwned: ownedBy(catalog),
    builtIn: new Set([...BENCHMARK_TABLES, ...catalog.written]),
  };
}

function recordWrites(judgement: Judgement, owned: Set<string>): void {
  for (const { verdict } of judgement.statements) {
    if (verdict.kind !== 'write') continue;
    if (verdict.drops && verdict.creates !== verdict.table) owned.delete(verdict.table);
    if (verdict.creates) owned.add(verdict.creates);
  }
}

export class ConsoleSession {
  running = $state(false);
  cancelling = $state(false);
  result: ConsoleResult | null = $state.raw(null);
  error: ConsoleError | null = $state.raw(null);
  history: HistoryEntry[] = $state.raw([]);
  /** A text run before the tables the console reads were in: `runQueued` runs it once they are. */
  queued: string | null = $state(null);
  /** A text that changes the console's own tables, waiting for the reader to confirm it. */
  pending: { sql: string; tables: string[] } | null = $state.raw(null);

  private connection: { catalog: Catalog; runner: Promise<StatementRunner> } | null = null;
  /** The run in progress: a cancel aborts it for good, whichever step it is at. */
  private inFlight: AbortController | null = null;

  constructor(
    private readonly services: AppServices,
    private readonly storage: HistoryStorage,
  ) {
    this.history = readHistory(storage);
  }

  /** DuckDB is up with every table the console lists (the conversation benchmarks included). */
  get ready(): boolean {
    return this.services.sqlReady;
  }

  /** What the console waits for before it can run. */
  get waitingFor(): string {
    return this.services.catalog === null
      ? 'Waiting for DuckDB to start…'
      : 'Waiting for the conversation benchmarks to load…';
  }

  /** The text run too early, now that the tables are in. */
  runQueued(): void {
    const sql = this.queued;
    if (sql === null || !this.ready) return;
    this.queued = null;
    void this.run(sql);
  }

  private runnerFor(catalog: Catalog): Promise<StatementRunner> {
    if (this.connection?.catalog !== catalog) {
      const old = this.connection;
      this.connection = { catalog, runner: catalog.engine.openStatementRunner() };
      void old?.runner.then((r) => r.close()).catch(() => undefined);
    }
    return this.connection.runner;
  }

  /**
   * Runs the text once guard.ts allows it: a refused text does not run at all, and one that
   * changes tables waits in `pending` until `confirm()` (`confirmed` skips that step).
   */
  async run(sql: string, confirmed = false): Promise<void> {
    if (!sql.trim()) return;
    // Run before its tables are in, it would find no such table: it waits for them instead.
    if (!this.ready) {
      this.queued = sql;
      return;
    }
    const catalog = this.services.catalog;
    if (this.running || !catalog) return;
    this.running = true;
    this.error = null;
    this.pending = null;
    const inFlight = new AbortController();
    this.inFlight = inFlight;
    const { signal } = inFlight;
    let rows: number | null = null;
    try {
      const runner = await this.runnerFor(catalog);
      const owned = ownedBy(catalog);
      const judgement = judgeSql(sql, await ownership(runner, catalog, signal));
      const plan = planRun(judgement, confirmed);
      if (plan.kind === 'refused') throw new ConsoleError(plan.reason, null, false, true);
      if (plan.kind === 'confirm') {
        this.pending = { sql, tables: plan.tables };
        return;
      }
      try {
        this.result = await runConsoleSql(runner, sql, {
          maxRows: RESULT_CAP,
          signal,
          writes: plan.writes,
        });
      } finally {
        recordWrites(judgement, owned);
      }
      rows = this.result.rows.length;
    } catch (err) {
      this.result = null;
      // A cancel can land before the statement runs (while the tables are listed): still a cancel.
      const cancelled = err instanceof StatementCancelledError;
      this.error =
        err instanceof ConsoleError ? err : new ConsoleError(errorMessage(err), null, cancelled);
    } finally {
      this.running = false;
      this.cancelling = false;
      this.inFlight = null;
    }
    this.history = addToHistory(this.storage, { sql, rows });
    // Tables the text created, replaced or dropped: every page's queries ask again.
    if (mayChangeTables(sql)) this.services.dataChanged();
  }

  /** Runs the text waiting for a confirmation. */
  confirm(): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    return pending ? this.run(pending.sql, true) : Promise.resolve();
  }

  dismiss(): void {
    this.pending = null;
  }

  /** Asks DuckDB to stop the statement in flight (duckdb-wasm's cancelSent on the pending query). */
  async cancel(): Promise<void> {
    const inFlight = this.inFlight;
    if (!this.running || !inFlight || this.cancelling) return;
    this.cancelling = true;
    // Aborted first and at once: a step not yet begun never starts, and one DuckDB is running
    // gets the cancel message right behind its own.
    inFlight.abort();
    const runner = await this.connection?.runner.catch(() => null);
    await runner?.cancel().catch(() => false);
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

/** The SQL console's session over the app's services, its history kept in this browser. */
export function consoleSession(services: AppServices): ConsoleSession {
  return new ConsoleSession(services, localStorage);
}
