// A DuckDB worker that dies (crashes, is closed, or stops answering) sends nothing: every call
// just never settles. The watchdog turns that into an error that names what happened, once,
// so the app can say so and start a new engine instead of showing a spinner forever.
import type { SqlEngine, SqlParam, SqlRow, StatementRunner } from './engine.ts';

export class EngineDeadError extends Error {
  constructor(readonly reason: string) {
    super(`DuckDB stopped: ${reason}`);
    this.name = 'EngineDeadError';
  }
}

export interface WatchOptions {
  /** A call still pending after this long means the worker is gone (MemLens' queries take seconds). */
  callTimeoutMs: number;
  /** How often an idle engine is asked whether it is alive. */
  pingEveryMs: number;
  pingTimeoutMs: number;
}

export const DEFAULT_WATCH: WatchOptions = {
  callTimeoutMs: 120_000,
  pingEveryMs: 5_000,
  pingTimeoutMs: 5_000,
};

export interface WatchedEngine extends SqlEngine {
  /** Why the engine died, or null while it lives. */
  readonly deadReason: string | null;
  /** Declares the engine dead (a worker `error` event, say): pending and later calls reject. */
  kill(reason: string): void;
}

/** Rejects with `onTimeout()`'s error when `promise` has not settled within `ms`. */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export function watchEngine(
  inner: SqlEngine,
  ping: () => Promise<unknown>,
  onDead: (reason: string) => void,
  opts: WatchOptions = DEFAULT_WATCH,
): WatchedEngine {
  let deadReason: string | null = null;
  let pending = 0;
  const waiting = new Set<(err: EngineDeadError) => void>();

  const kill = (reason: string) => {
    if (deadReason !== null) return;
    deadReason = reason;
    clearInterval(timer);
    const err = new EngineDeadError(reason);
    for (const reject of waiting) reject(err);
    waiting.clear();
    onDead(reason);
  };

  function call<T>(run: () => Promise<T>): Promise<T> {
    if (deadReason !== null) return Promise.reject(new EngineDeadError(deadReason));
    pending++;
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      const seconds = Math.round(opts.callTimeoutMs / 1000);
      withTimeout(run(), opts.callTimeoutMs, () => {
        kill(`the worker did not answer for ${seconds} s`);
        return new EngineDeadError(deadReason ?? '');
      })
        .then(resolve, reject)
        .finally(() => {
          pending--;
          waiting.delete(reject);
        });
    });
  }

  /**
   * A console statement may run as long as the reader likes: it has no timeout and does not hold
   * back the pings (the worker answers them between the statement's slices), but a dead worker
   * still rejects it.
   */
  function guard<T>(run: () => Promise<T>): Promise<T> {
    if (deadReason !== null) return Promise.reject(new EngineDeadError(deadReason));
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      run()
        .then(resolve, reject)
        .finally(() => waiting.delete(reject));
    });
  }

  const watchRunner = (runner: StatementRunner): StatementRunner => ({
    run: (sql, maxRows, signal) => guard(() => runner.run(sql, maxRows, signal)),
    check: (sql, signal) => call(() => runner.check(sql, signal)),
    cancel: () => call(() => runner.cancel()),
    close: () => call(() => runner.close()),
  });

  let pinging = false;
  const timer = setInterval(() => {
    if (pending > 0 || pinging || deadReason !== null) return;
    pinging = true;
    withTimeout(ping(), opts.pingTimeoutMs, () => new Error('no answer'))
      .catch(() => kill('the worker stopped answering'))
      .finally(() => (pinging = false));
  }, opts.pingEveryMs);

  return {
    get deadReason() {
      return deadReason;
    },
    kill,
    query: (sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]> =>
      call(() => inner.query(sql, params)),
    registerText: (name: string, text: string) => call(() => inner.registerText(name, text)),
    insertJsonFromPath: (name: string, table: string) =>
      call(() => inner.insertJsonFromPath(name, table)),
    dropFile: (name: string) => call(() => inner.dropFile(name)),
    openStatementRunner: async () => watchRunner(await call(() => inner.openStatementRunner())),
    async close() {
      clearInterval(timer);
      if (deadReason !== null) return;
      deadReason = 'closed';
      const late = () => new Error('close timed out');
      await withTimeout(inner.close(), opts.pingTimeoutMs, late).catch(() => undefined);
    },
  };
}
