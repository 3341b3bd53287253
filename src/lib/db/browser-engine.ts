import * as duckdb from '@duckdb/duckdb-wasm';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import {
  OFFLINE_SETTINGS_SQL,
  StatementCancelledError,
  arrowColumns,
  arrowRow,
  arrowToRows,
  type SqlEngine,
  type SqlParam,
  type SqlRow,
  type StatementRunner,
} from './engine.ts';
import { DEFAULT_WATCH, watchEngine, withTimeout, type WatchedEngine } from './watchdog.ts';
import { errorMessage } from '../common/error-message.ts';

/** Bundles served by the site itself (Vite `?url` imports), never jsDelivr. */
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
  eh: { mainModule: ehWasm, mainWorker: ehWorker },
};

export interface BrowserEngineOptions {
  /** Called once when the worker dies after start-up (error event, closed, no answer). */
  onDead?: (reason: string) => void;
  /** Drops the given URLs from the service worker's caches (a corrupt copy) before the retry. */
  evict?: (urls: string[]) => Promise<void>;
  startTimeoutMs?: number;
}

/**
 * The console's connection sends its text as a pending query: the worker runs it in slices and
 * answers other messages (pings, the app's queries) in between, so `cancelSent` can stop it, and
 * the result streams, so only the rows asked for are ever read.
 */
async function openBrowserRunner(db: duckdb.AsyncDuckDB): Promise<StatementRunner> {
  const conn = await db.connect();
  let cancelled = false;
  return {
    async run(sql, maxRows) {
      cancelled = false;
      let reader: Awaited<ReturnType<typeof conn.send>>;
      try {
        reader = await conn.send(sql, true);
      } catch (err) {
        if (cancelled) throw new StatementCancelledError();
        throw err;
      }
      // The schema is read with the stream's first message; open() reads it even for no rows.
      await reader.open();
      const columns = arrowColumns(reader.schema);
      const rows: SqlRow[] = [];
      let truncated = false;
      for await (const batch of reader) {
        if (cancelled) throw new StatementCancelledError();
        for (const row of batch.toArray()) {
          if (rows.length >= maxRows) {
            truncated = true;
            break;
          }
          rows.push(arrowRow(row));
        }
        if (truncated) break;
      }
      return { columns, rows, truncated };
    },
    async cancel() {
      cancelled = true;
      return conn.cancelSent();
    },
    close: () => conn.close(),
  };
}

/** DuckDB's worker behind public/duckdb-worker-shim.js, so that its compiled wasm is cached. */
function cacheableWorkerUrl(mainWorker: string): string {
  const shim = new URL('duckdb-worker-shim.js', document.baseURI);
  shim.hash = new URLSearchParams({
    worker: new URL(mainWorker, document.baseURI).pathname,
  }).toString();
  return shim.href;
}

const fileName = (url: string) => url.split('/').pop()?.split('?')[0] ?? url;

async function startOnce(
  bundle: duckdb.DuckDBBundle,
  timeoutMs: number,
): Promise<{ worker: Worker; db: duckdb.AsyncDuckDB; conn: duckdb.AsyncDuckDBConnection }> {
  if (!bundle.mainWorker) throw new Error('no worker bundle for this browser');
  const worker = new Worker(cacheableWorkerUrl(bundle.mainWorker));
  // A worker script that fails to load or run fires `error` and nothing else.
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) =>
      reject(
        new Error(`worker ${fileName(bundle.mainWorker ?? '')} failed: ${e.message || 'error'}`),
      ),
    );
  });
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  try {
    const start = async () => {
      await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
      await db.open({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
      const conn = await db.connect();
      await conn.query(OFFLINE_SETTINGS_SQL);
      return conn;
    };
    const seconds = Math.round(timeoutMs / 1000);
    const conn = await withTimeout(
      Promise.race([start(), failed]),
      timeoutMs,
      () => new Error(`no answer within ${seconds} s`),
    );
    return { worker, db, conn };
  } catch (err) {
    worker.terminate();
    throw err;
  }
}

/**
 * Starts DuckDB in a worker; a start that fails or hangs is retried once after the bundle's files
 * are evicted from the caches, then reported naming them.
 */
export async function openBrowserEngine(opts: BrowserEngineOptions = {}): Promise<WatchedEngine> {
  const bundle = await duckdb.selectBundle(BUNDLES);
  const files = [bundle.mainModule, bundle.mainWorker ?? ''].filter(Boolean);
  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  let started: Awaited<ReturnType<typeof startOnce>>;
  try {
    started = await startOnce(bundle, timeoutMs);
  } catch (first) {
    await opts.evict?.(files).catch(() => undefined);
    try {
      started = await startOnce(bundle, timeoutMs);
    } catch (err) {
      const names = files.map(fileName).join(', ');
      throw new Error(`DuckDB could not start (${names}): ${errorMessage(err)}`, { cause: first });
    }
  }
  const { worker, db, conn } = started;
  const inner: SqlEngine = {
    async query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]> {
      if (!params?.length) return arrowToRows(await conn.query(sql));
      const statement = await conn.prepare(sql);
      try {
        return arrowToRows(await statement.query(...params));
      } finally {
        await statement.close();
      }
    },
    async registerText(name: string, text: string): Promise<void> {
      await db.registerFileText(name, text);
    },
    async insertJsonFromPath(name: string, table: string): Promise<void> {
      await conn.insertJSONFromPath(name, { name: table });
    },
    async dropFile(name: string): Promise<void> {
      await db.dropFile(name);
    },
    openStatementRunner: () => openBrowserRunner(db),
    async close(): Promise<void> {
      await conn.close();
      await db.terminate();
      worker.terminate();
    },
  };
  const watched = watchEngine(
    inner,
    () => db.getVersion(),
    (reason) => {
      worker.terminate();
      opts.onDead?.(reason);
    },
    DEFAULT_WATCH,
  );
  worker.addEventListener('error', (e) => watched.kill(`worker error: ${e.message || 'unknown'}`));
  worker.addEventListener('messageerror', () => watched.kill('worker sent an unreadable message'));
  return watched;
}
