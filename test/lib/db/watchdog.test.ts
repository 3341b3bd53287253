import { describe, expect, it } from 'vitest';
import type { SqlEngine, StatementRunner } from '../../../src/lib/db/engine.ts';
import { EngineDeadError, watchEngine, withTimeout } from '../../../src/lib/db/watchdog.ts';

const FAST = { callTimeoutMs: 200, pingEveryMs: 20, pingTimeoutMs: 50 };
const never = <T>() => new Promise<T>(() => undefined);

/** A console statement that runs until the test says otherwise. */
function slowRunner() {
  let finish: () => void = () => undefined;
  const runner: StatementRunner = {
    run: () =>
      new Promise((resolve) => {
        finish = () => resolve({ columns: [], rows: [], truncated: false });
      }),
    check: async () => undefined,
    cancel: async () => true,
    close: async () => undefined,
  };
  return { runner, finish: () => finish() };
}
const fakeRunner = slowRunner().runner;

/** An engine that answers until `die()`, after which nothing it is sent ever settles (a closed worker). */
function fakeEngine() {
  let alive = true;
  const answer = <T>(v: T) => (alive ? Promise.resolve(v) : never<T>());
  const engine: SqlEngine = {
    query: async () => answer([{ x: 1 }]),
    registerText: async () => answer(undefined),
    insertJsonFromPath: async () => answer(undefined),
    dropFile: async () => answer(undefined),
    openStatementRunner: async () => answer(fakeRunner),
    close: async () => undefined,
  };
  return { engine, ping: () => answer(true), die: () => (alive = false) };
}

describe('watchEngine', () => {
  it('passes calls through while the worker answers', async () => {
    const f = fakeEngine();
    const dead: string[] = [];
    const w = watchEngine(f.engine, f.ping, (r) => dead.push(r), FAST);
    expect(await w.query('SELECT 1')).toEqual([{ x: 1 }]);
    await new Promise((r) => setTimeout(r, 120));
    expect(dead).toEqual([]);
    expect(w.deadReason).toBeNull();
    await w.close();
  });

  it('notices an idle worker that stopped answering, once, and rejects later calls', async () => {
    const f = fakeEngine();
    const dead: string[] = [];
    const w = watchEngine(f.engine, f.ping, (r) => dead.push(r), FAST);
    f.die();
    await expect.poll(() => dead, { timeout: 2000 }).toEqual(['the worker stopped answering']);
    await expect(w.query('SELECT 1')).rejects.toThrow(
      'DuckDB stopped: the worker stopped answering',
    );
    await w.close();
  });

  it('rejects a call pending on a dead worker instead of waiting forever', async () => {
    const f = fakeEngine();
    const dead: string[] = [];
    const w = watchEngine(f.engine, f.ping, (r) => dead.push(r), {
      ...FAST,
      pingEveryMs: 10_000,
    });
    f.die();
    await expect(w.query('SELECT 1')).rejects.toBeInstanceOf(EngineDeadError);
    expect(dead).toEqual(['the worker did not answer for 0 s']);
    await w.close();
  });

  it('kill() (a worker error event) rejects what is pending, naming the reason', async () => {
    const f = fakeEngine();
    const w = watchEngine(f.engine, f.ping, () => undefined, { ...FAST, callTimeoutMs: 10_000 });
    f.die();
    const pending = w.query('SELECT 1');
    w.kill('worker error: out of memory');
    await expect(pending).rejects.toThrow('DuckDB stopped: worker error: out of memory');
    await w.close();
  });
});

describe('a watched console statement', () => {
  it('may outlast the call timeout while the worker answers pings', async () => {
    const f = fakeEngine();
    const slow = slowRunner();
    f.engine.openStatementRunner = async () => slow.runner;
    let pings = 0;
    const ping = () => (pings++, f.ping());
    const dead: string[] = [];
    const w = watchEngine(f.engine, ping, (r) => dead.push(r), FAST);
    const runner = await w.openStatementRunner();
    const running = runner.run('SELECT count(*) FROM range(10000000000)', 10);
    await new Promise((r) => setTimeout(r, 400));
    expect(dead).toEqual([]);
    expect(pings).toBeGreaterThan(3);
    slow.finish();
    expect(await running).toEqual({ columns: [], rows: [], truncated: false });
    await w.close();
  });

  it('is rejected when the worker dies under it', async () => {
    const f = fakeEngine();
    const slow = slowRunner();
    f.engine.openStatementRunner = async () => slow.runner;
    const w = watchEngine(f.engine, f.ping, () => undefined, FAST);
    const running = (await w.openStatementRunner()).run('SELECT 1', 10);
    f.die();
    await expect(running).rejects.toThrow('DuckDB stopped: the worker stopped answering');
    await w.close();
  });
});

describe('withTimeout', () => {
  it('settles with the promise, or with the timeout error', async () => {
    expect(await withTimeout(Promise.resolve(3), 50, () => new Error('late'))).toBe(3);
    await expect(withTimeout(never(), 10, () => new Error('late'))).rejects.toThrow('late');
  });
});
