import { describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/lib/db/engine.ts';
import { EngineDeadError, watchEngine, withTimeout } from '../../../src/lib/db/watchdog.ts';

const FAST = { callTimeoutMs: 200, pingEveryMs: 20, pingTimeoutMs: 50 };
const never = <T>() => new Promise<T>(() => undefined);

/** An engine that answers until `die()`, after which nothing it is sent ever settles (a closed worker). */
function fakeEngine() {
  let alive = true;
  const answer = <T>(v: T) => (alive ? Promise.resolve(v) : never<T>());
  const engine: SqlEngine = {
    query: async () => answer([{ x: 1 }]),
    registerText: async () => answer(undefined),
    insertJsonFromPath: async () => answer(undefined),
    dropFile: async () => answer(undefined),
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

describe('withTimeout', () => {
  it('settles with the promise, or with the timeout error', async () => {
    expect(await withTimeout(Promise.resolve(3), 50, () => new Error('late'))).toBe(3);
    await expect(withTimeout(never(), 10, () => new Error('late'))).rejects.toThrow('late');
  });
});
