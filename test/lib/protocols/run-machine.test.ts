import { describe, expect, it } from 'vitest';
import { RunMachine, type RunSteps, type RunWork } from '../../../src/lib/protocols/run-machine.ts';

interface State {
  phase: 'idle' | 'running' | 'error' | 'cancelled';
  value: string | null;
  done: number;
  error: string;
}

const IDLE: State = { phase: 'idle', value: null, done: 0, error: '' };
const STEPS: RunSteps<State, string> = {
  started: { phase: 'running', done: 0, error: '' },
  finished: (value) => ({ phase: 'idle', value }),
  failed: (_err, error) => ({ phase: 'error', error, value: null }),
  cancelled: { phase: 'cancelled', done: 0 },
};

/** The machine as a view extends it, its steps opened to the test. */
class Machine extends RunMachine<State, string> {
  constructor() {
    super(IDLE, STEPS);
  }
  fresh(key: string): boolean {
    return this.isNew(key);
  }
  start(key: string, work: RunWork<State, string>): void {
    this.run(key, work);
  }
  reset(key: string): void {
    this.clear(key);
  }
}

/** A run whose end the test decides. */
function deferred() {
  let resolve: (value: string) => void = () => undefined;
  let reject: (err: Error) => void = () => undefined;
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('RunMachine', () => {
  it('runs a new key, reports its steps and ends with its result', async () => {
    const machine = new Machine();
    const run = deferred();
    expect(machine.fresh('a')).toBe(true);
    machine.start('a', (_signal, report) => {
      report({ done: 3 });
      return run.promise;
    });
    expect(machine.getSnapshot()).toMatchObject({ phase: 'running', done: 3 });
    expect(machine.fresh('a')).toBe(false);
    run.resolve('A');
    await settle();
    expect(machine.getSnapshot()).toMatchObject({ phase: 'idle', value: 'A', done: 3 });
  });

  it('aborts the run before a new one and drops its steps and its result', async () => {
    const machine = new Machine();
    const first = deferred();
    const second = deferred();
    const seen: { signal: AbortSignal; report: (part: Partial<State>) => void }[] = [];
    machine.start('a', (signal, report) => {
      seen.push({ signal, report });
      return first.promise;
    });
    machine.start('b', () => second.promise);
    expect(seen[0].signal.aborted).toBe(true);
    seen[0].report({ done: 99 });
    first.resolve('stale');
    second.resolve('B');
    await settle();
    expect(machine.getSnapshot()).toMatchObject({ phase: 'idle', value: 'B', done: 0 });
  });

  it('ends a failed run with its message, and a cancelled one so that it may run again', async () => {
    const machine = new Machine();
    const failing = deferred();
    machine.start('a', () => failing.promise);
    failing.reject(new Error('no tables'));
    await settle();
    expect(machine.getSnapshot()).toMatchObject({ phase: 'error', error: 'no tables' });
    machine.cancel();
    expect(machine.getSnapshot().phase).toBe('error');
    const slow = deferred();
    machine.start('b', () => slow.promise);
    machine.cancel();
    expect(machine.getSnapshot().phase).toBe('cancelled');
    expect(machine.fresh('b')).toBe(true);
    slow.resolve('late');
    await settle();
    expect(machine.getSnapshot()).toMatchObject({ phase: 'cancelled', value: null });
  });

  it('clears back to idle, the key kept as the last asked', () => {
    const machine = new Machine();
    machine.start('a', () => deferred().promise);
    machine.reset('none');
    expect(machine.getSnapshot()).toEqual(IDLE);
    expect(machine.fresh('none')).toBe(false);
    machine.dispose();
  });
});
