// Starting DuckDB and loading what the site serves, again after a failure or a dead worker:
// plain state the shell renders (steps, the fatal error, notices), kept out of App.svelte.
import { installSqlHook } from './sql-hook.ts';
import { tick } from 'svelte';
import { Catalog } from '../db/catalog.ts';
import type { WatchedEngine } from '../db/watchdog.ts';
import { loadBenchmarkData, loadCoreData, type ResultsFile } from '../loaders/core-loader.ts';
import { loadSiteIndex, type FetchOptions } from '../data/fetch-source.ts';
import type { Pin } from '../data/integrity.ts';
import type { LoadStep } from '../common/load-status.ts';
import { OnDemandLoad } from './on-demand-load.ts';
import { routeReadsBenchmarks } from './route-tables.ts';
import { DUCKDB_READY_MARK, INTERACTIVE_MARK, markOnce } from './load-marks.ts';
import type { AppServices } from './services.svelte.ts';
import { errorMessage } from '../common/error-message.ts';
import { restoreNotice, restoreUserTables } from '../userdata/persist.ts';

export interface SessionDeps {
  /** Opens a fresh DuckDB engine; `onDead` fires when the worker dies. */
  openEngine: (onDead: (reason: string) => void) => Promise<WatchedEngine>;
  resultsFiles: readonly ResultsFile[];
  allowUpstream: boolean;
  siteIndexPin: Pin | null;
  evict: (urls: readonly string[]) => Promise<void>;
  fetch: typeof fetch;
}

/** What the conversation benchmarks load into: one DuckDB start's catalog, after its core steps. */
interface BenchmarkTarget {
  catalog: Catalog;
  fetchOptions: FetchOptions;
  coreSteps: LoadStep[];
}

/** The benchmarks' step until a page that reads them is shown (its id and label when it runs). */
export const DEFERRED_BENCHMARKS_STEP: LoadStep = {
  id: 'benchmarks',
  label: 'Conversation benchmarks',
  state: 'deferred',
  detail: 'loaded when a page needs them',
};

export class DataSession {
  steps: LoadStep[] = $state([]);
  fatal = $state('');
  notices: string[] = $state([]);
  engineNotice = $state('');
  starting = $state(false);

  private engine: WatchedEngine | null = null;
  private firstEngine: Promise<WatchedEngine> | null;
  private readonly benchmarks = new OnDemandLoad<BenchmarkTarget>((t) => this.loadBenchmarks(t));

  constructor(
    private readonly services: AppServices,
    private readonly deps: SessionDeps,
  ) {
    // Started before anything else: DuckDB's worker and wasm download and compile while the
    // first chart draws from the build-time snapshot. Later starts open anew.
    this.firstEngine = this.open();
    this.firstEngine.catch(() => {});
  }

  private open(): Promise<WatchedEngine> {
    return this.deps.openEngine((reason) => void this.restart(reason));
  }

  /**
   * Opens DuckDB and loads the released results and InMind, then the conversation benchmarks if a
   * page shown asked for them; re-runnable after a failure.
   */
  async start(): Promise<void> {
    if (this.starting) return;
    this.starting = true;
    this.fatal = '';
    const services = this.services;
    this.benchmarks.reset();
    services.benchmarkLoad = 'deferred';
    try {
      let siteFiles: Set<string> | undefined;
      try {
        siteFiles = await loadSiteIndex(services.siteBase, this.deps.fetch, this.deps.siteIndexPin);
      } catch (err) {
        // Without a trustworthy index every file is asked of the site, and each is still checked.
        const notice = errorMessage(err);
        if (!this.notices.includes(notice)) this.notices = [...this.notices, notice];
      }
      const fetchOptions = {
        siteBase: services.siteBase,
        allowUpstream: this.deps.allowUpstream,
        siteFiles,
        evict: (url: string) => this.deps.evict([url]),
      };
      const old = this.engine;
      this.engine = null;
      services.setCatalog(null);
      await old?.close().catch(() => undefined);
      services.sqlState = 'starting';
      const pending = this.firstEngine ?? this.open();
      this.firstEngine = null;
      this.engine = await pending;
      markOnce(DUCKDB_READY_MARK);
      services.sqlState = 'loading';
      const catalog = new Catalog(this.engine);
      installSqlHook(catalog);
      this.steps = [];
      await loadCoreData(catalog, fetchOptions, (s) => (this.steps = s), this.deps.resultsFiles);
      services.restore = { ...services.restore, phase: 'restoring', done: 0, total: 0 };
      services.setCatalog(catalog);
      services.sqlState = 'ready';
      services.dataChanged();
      await tick();
      markOnce(INTERACTIVE_MARK);
      await this.restoreUserTables(catalog);
      const coreSteps = this.steps;
      if (!this.benchmarks.wanted) this.steps = [...coreSteps, DEFERRED_BENCHMARKS_STEP];
      await this.benchmarks.ready({ catalog, fetchOptions, coreSteps });
    } catch (err) {
      services.sqlState = 'failed';
      this.fatal = errorMessage(err);
    } finally {
      this.starting = false;
    }
  }

  /** The page shown is `pageId`: the tables it reads are loaded now if they are not yet. */
  showRoute(pageId: string): void {
    const reads = routeReadsBenchmarks(pageId);
    this.services.routeReadsBenchmarks = reads;
    if (reads) void this.benchmarks.ask();
  }

  /** The conversation benchmarks into `t`'s catalog; a restart meanwhile drops what it reports. */
  private async loadBenchmarks(t: BenchmarkTarget): Promise<void> {
    const services = this.services;
    const current = () => services.catalog === t.catalog;
    services.benchmarkLoad = 'loading';
    await loadBenchmarkData(t.catalog, t.fetchOptions, (s) => {
      if (current()) this.steps = [...t.coreSteps, ...s];
    });
    if (!current()) return;
    services.benchmarkLoad = 'over';
    services.dataChanged();
  }

  /** The tables kept in this browser, loaded again; one that fails is named, the rest load. */
  private async restoreUserTables(catalog: Catalog): Promise<void> {
    const services = this.services;
    try {
      const outcome = await restoreUserTables(
        catalog,
        services.tableStore,
        (done, total, table) => {
          services.restore = { ...services.restore, phase: 'restoring', done, total, table };
        },
      );
      for (const r of outcome.restored) services.userFiles.set(r.table, r.file);
      for (const [table, savedAt] of outcome.kept) services.keptHere.set(table, savedAt);
      services.restore = {
        ...services.restore,
        phase: 'done',
        notice: restoreNotice(outcome),
        failed: outcome.failed,
      };
    } catch (err) {
      services.restore = {
        ...services.restore,
        phase: 'done',
        notice: '',
        failed: [
          {
            table: 'your tables',
            message: `this browser's store could not be read: ${errorMessage(err)}`,
          },
        ],
      };
    }
    if (services.restore.total > 0 || services.restore.failed.length > 0) services.dataChanged();
  }

  /** A dead DuckDB worker is announced, replaced, and what it held is loaded again. */
  async restart(reason: string): Promise<void> {
    this.services.setCatalog(null);
    const held = [...this.services.userFiles];
    this.services.userFiles.clear();
    this.engineNotice = `DuckDB stopped (${reason}). Starting it again and reloading the benchmark data…`;
    await this.start();
    const reloaded = this.benchmarks.started
      ? 'released results and benchmarks are loaded again'
      : 'released results are loaded again, the conversation benchmarks when a page needs them';
    // Tables kept in this browser came back with the restore; only the others are lost.
    const back = held.filter(([table]) => this.services.userFiles.has(table)).map(([t]) => t);
    const lost = held
      .filter(([table]) => !this.services.userFiles.has(table))
      .map(([table, file]) => `${file} (as ${table})`);
    this.engineNotice = this.fatal
      ? `DuckDB stopped (${reason}) and could not be started again.`
      : `DuckDB stopped (${reason}) and was started again: ${reloaded}. ${lostFiles(lost, back)}`;
  }

  /** After a failure for want of network, the start runs again once the browser is online. */
  retryIfFailed(): void {
    if (this.fatal || this.steps.some((s) => s.state === 'error')) void this.start();
  }
}

function lostFiles(lost: readonly string[], back: readonly string[]): string {
  const restored =
    back.length > 0 ? `Your tables kept in this browser are back: ${back.join(', ')}.` : '';
  if (lost.length === 0) return restored || 'No files of yours were loaded.';
  return `${restored ? `${restored} ` : ''}Files you loaded on "Your data" were held by the stopped engine; load them again there: ${lost.join(', ')}.`;
}
