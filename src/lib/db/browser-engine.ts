import * as duckdb from '@duckdb/duckdb-wasm';
import {
  duckdbStartMark,
  LOCKDOWN_SQL,
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
import {
  AssetIntegrityError,
  buildDigests,
  checkedBytes,
  expectedDigest,
  fileName,
  type BuildDigests,
} from '../offline/checked-assets.ts';
import { duckdbWorkerPrologue, sriOfSha256Hex } from './duckdb-worker-prologue.ts';

export interface BrowserEngineOptions {
  /** The wasm and worker files, served by the site itself (src/browser/duckdb-bundles.ts). */
  bundles: duckdb.DuckDBBundles;
  /** Called once when the worker dies after start-up (error event, closed, no answer). */
  onDead?: (reason: string) => void;
  /** Drops the given URLs from the service worker's caches (a corrupt copy) before the retry. */
  evict?: (urls: string[]) => Promise<void>;
  startTimeoutMs?: number;
}

/**
 * The console's connection sends its text as a pending query: the worker runs it in slices and
 * answers other messages (pings, the app's queries) in between, so `cancelSent` can stop it, and
 * the result streams, so only the rows asked for are ever read. The cancel itself lives in the
 * caller's signal, which spans the whole run: aborted before the text is sent, nothing is sent;
 * after, `cancel()`'s message reaches the worker behind the query's own and stops it.
 */
async function openBrowserRunner(db: duckdb.AsyncDuckDB): Promise<StatementRunner> {
  const conn = await db.connect();
  const stopIfCancelled = (signal?: AbortSignal) => {
    if (signal?.aborted) throw new StatementCancelledError();
  };
  return {
    async run(sql, maxRows, signal) {
      stopIfCancelled(signal);
      let reader: Awaited<ReturnType<typeof conn.send>>;
      try {
        reader = await conn.send(sql, true);
      } catch (err) {
        stopIfCancelled(signal);
        throw err;
      }
      stopIfCancelled(signal);
      // The schema is read with the stream's first message; open() reads it even for no rows.
      await reader.open();
      const columns = arrowColumns(reader.schema);
      const rows: SqlRow[] = [];
      let truncated = false;
      for await (const batch of reader) {
        stopIfCancelled(signal);
        for (const row of batch.toArray()) {
          if (rows.length >= maxRows) {
            truncated = true;
            break;
          }
          rows.push(arrowRow(row));
        }
        if (truncated) break;
      }
      stopIfCancelled(signal);
      return { columns, rows, truncated };
    },
    async check(sql, signal) {
      stopIfCancelled(signal);
      const statement = await conn.prepare(sql);
      await statement.close();
      stopIfCancelled(signal);
    },
    cancel: () => conn.cancelSent(),
    close: () => conn.close(),
  };
}

/**
 * The bundle as DuckDB's worker runs it: its script checked against the build's digest (a blob:
 * URL with the prologue), its wasm by URL with the digest as fetch's `integrity`, so the page
 * neither reads nor hashes 34 MB before the worker does. `checkWasm` also reads and checks the
 * wasm here, naming what is wrong with a bad copy: the retry after a failed start does.
 */
async function verifiedBundle(
  bundle: duckdb.DuckDBBundle,
  digests: BuildDigests,
  reload: boolean,
  checkWasm: boolean,
): Promise<duckdb.DuckDBBundle> {
  const wasm = new URL(bundle.mainModule, document.baseURI).href;
  const worker = bundle.mainWorker ? new URL(bundle.mainWorker, document.baseURI).href : null;
  const expected = expectedDigest(digests, wasm);
  const workerExpected = worker === null ? null : expectedDigest(digests, worker);
  // Not a build (the dev server): no digests to check against.
  if (expected === null || worker === null || workerExpected === null) {
    return { mainModule: wasm, mainWorker: worker, pthreadWorker: bundle.pthreadWorker };
  }
  const [workerBytes] = await Promise.all([
    checkedBytes(worker, workerExpected, { reload }),
    checkWasm ? checkedBytes(wasm, expected, { reload }) : null,
  ]);
  const prologue = duckdbWorkerPrologue(wasm, sriOfSha256Hex(expected));
  const mainWorker = URL.createObjectURL(
    new Blob([prologue, workerBytes], { type: 'text/javascript' }),
  );
  return { mainModule: wasm, mainWorker, pthreadWorker: bundle.pthreadWorker };
}

/** Checked files, once more past every cache after evicting them when the first check fails. */
async function checkedBundle(
  bundle: duckdb.DuckDBBundle,
  files: string[],
  evict: BrowserEngineOptions['evict'],
  checkWasm: boolean,
): Promise<duckdb.DuckDBBundle> {
  const digests = await buildDigests(document.baseURI);
  try {
    return await verifiedBundle(bundle, digests, false, checkWasm);
  } catch (err) {
    if (!(err instanceof AssetIntegrityError)) throw err;
    await evict?.(files).catch(() => undefined);
    return verifiedBundle(bundle, digests, true, checkWasm);
  }
}

const markFirst = (name: string) => {
  if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
};

async function startOnce(
  bundle: duckdb.DuckDBBundle,
  timeoutMs: number,
): Promise<{ worker: Worker; db: duckdb.AsyncDuckDB; conn: duckdb.AsyncDuckDBConnection }> {
  if (!bundle.mainWorker) throw new Error('no worker bundle for this browser');
  const worker = new Worker(bundle.mainWorker);
  markFirst(duckdbStartMark('worker'));
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
      markFirst(duckdbStartMark('instantiated'));
      await db.open({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
      markFirst(duckdbStartMark('opened'));
      const conn = await db.connect();
      await conn.query(LOCKDOWN_SQL);
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
export async function openBrowserEngine(opts: BrowserEngineOptions): Promise<WatchedEngine> {
  const selected = await duckdb.selectBundle(opts.bundles);
  markFirst(duckdbStartMark('client'));
  const files = [selected.mainModule, selected.mainWorker ?? ''].filter(Boolean);
  const names = files.map(fileName).join(', ');
  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  let bundle: duckdb.DuckDBBundle;
  try {
    bundle = await checkedBundle(selected, files, opts.evict, false);
  } catch (err) {
    throw new Error(`DuckDB could not start (${names}): ${errorMessage(err)}`);
  }
  let started: Awaited<ReturnType<typeof startOnce>>;
  try {
    started = await startOnce(bundle, timeoutMs);
  } catch (first) {
    await opts.evict?.(files).catch(() => undefined);
    try {
      bundle = await checkedBundle(selected, files, undefined, true);
      started = await startOnce(bundle, timeoutMs);
    } catch (err) {
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
