// The RPC over a real MessageChannel: the page's client on one port, the worker's server on the
// other. Web Locks are a one-thread stand-in whose holder can be ended, as a dead worker's is.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RpcClient,
  serveRpc,
  transferring,
  type RpcClientOptions,
  type RpcHandlers,
  type RpcLocks,
  type RpcServeOptions,
  type RpcWorker,
} from '../../../src/lib/common/worker-rpc.ts';

interface TestMethods {
  echo: { params: { text: string; steps: number }; result: string; progress: number };
  double: {
    params: { values: Float32Array };
    result: { values: Float32Array };
    progress: Float32Array;
  };
  wait: { params: null; result: string; progress: never };
  fail: { params: null; result: never; progress: never };
}

/** A port with what the page's side of a Worker has: terminate, and an error event. */
class PortWorker implements RpcWorker {
  terminated = false;
  readonly sent: unknown[] = [];
  private readonly onError = new Set<(event: MessageEvent) => void>();
  constructor(readonly port: MessagePort) {}
  postMessage(message: unknown, options: { transfer: Transferable[] }): void {
    this.sent.push(message);
    this.port.postMessage(message, options);
  }
  addEventListener(type: 'message' | 'error', listener: (event: MessageEvent) => void): void {
    if (type === 'message') this.port.addEventListener('message', listener);
    else this.onError.add(listener);
  }
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void {
    this.port.removeEventListener(type, listener);
  }
  terminate(): void {
    this.terminated = true;
    this.port.close();
  }
  /** What a Worker fires when an exception escapes its script. */
  fail(message: string): void {
    const event = Object.assign(new MessageEvent('error', { cancelable: true }), { message });
    this.onError.forEach((listener) => listener(event));
  }
}

/** Exclusive, queued locks in one thread; `release` is what the browser does when a holder dies. */
class OneThreadLocks implements RpcLocks {
  private readonly waiting = new Map<string, (() => void)[]>();
  request(name: string, callback: () => unknown): Promise<unknown> {
    return new Promise((resolve) => {
      const grant = () =>
        void Promise.resolve(callback())
          .then(resolve)
          .finally(() => this.release(name));
      const queue = this.waiting.get(name);
      if (queue) queue.push(grant);
      else {
        this.waiting.set(name, []);
        queueMicrotask(grant);
      }
    });
  }
  release(name: string): void {
    const next = this.waiting.get(name)?.shift();
    if (next) next();
    else this.waiting.delete(name);
  }
  queued(name: string): number {
    return this.waiting.get(name)?.length ?? -1;
  }
  names(): string[] {
    return [...this.waiting.keys()];
  }
}

// setImmediate: the fake timers below fake setTimeout only.
const tick = () => new Promise((resolve) => setImmediate(resolve));
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await tick();
  if (!condition()) throw new Error('condition not reached');
}

const opened: MessagePort[] = [];
afterEach(() => {
  opened.splice(0).forEach((port) => port.close());
  vi.useRealTimers();
});

/** What the handlers saw, for the tests to read. */
const seen = { aborted: [] as string[], started: [] as string[], returned: [] as Float32Array[] };

const handlers: RpcHandlers<TestMethods> = {
  echo: ({ text, steps }, { progress }) => {
    seen.started.push(text);
    for (let step = 1; step <= steps; step++) progress(step);
    return text.toUpperCase();
  },
  double: ({ values }, { progress }) => {
    const first = values.slice(0, 1);
    progress(first, [first.buffer]);
    const doubled = values.map((v) => v * 2);
    seen.returned.push(doubled);
    return transferring({ values: doubled }, [doubled.buffer]);
  },
  wait: (_, { signal }) =>
    new Promise((resolve) => {
      seen.started.push('wait');
      signal.addEventListener('abort', () => {
        seen.aborted.push('wait');
        resolve('stopped');
      });
    }),
  fail: () => {
    throw new Error('the handler broke');
  },
};

function pair(
  client: Partial<RpcClientOptions> = {},
  server: RpcServeOptions<TestMethods> = {},
  serve = true,
) {
  const { port1, port2 } = new MessageChannel();
  opened.push(port1, port2);
  const locks = client.locks ?? null;
  if (serve) serveRpc<TestMethods>(port2, handlers, { locks, ...server });
  const worker = new PortWorker(port1);
  const rpc = new RpcClient<TestMethods>(worker, { name: 'test worker', locks, ...client });
  return { worker, rpc };
}

describe('worker RPC: calls', () => {
  it('answers a call, with its progress events first, in order', async () => {
    const { rpc } = pair();
    const steps: number[] = [];
    const answer = await rpc.call(
      'echo',
      { text: 'memory', steps: 3 },
      { onProgress: (s) => steps.push(s) },
    );
    expect(answer).toBe('MEMORY');
    expect(steps).toEqual([1, 2, 3]);
  });

  it('moves buffers in transfer lists: the call’s, a progress event’s and the result’s', async () => {
    const { rpc } = pair();
    const values = Float32Array.from([1, 2, 3]);
    const firsts: number[][] = [];
    const { values: doubled } = await rpc.call(
      'double',
      { values },
      { transfer: [values.buffer], onProgress: (first) => firsts.push(Array.from(first)) },
    );
    expect(values.length).toBe(0);
    expect(Array.from(doubled)).toEqual([2, 4, 6]);
    expect(firsts).toEqual([[1]]);
    expect(seen.returned.at(-1)?.length).toBe(0);
  });

  it('rejects with the handler’s error, and names a method or params the worker refuses', async () => {
    const { rpc } = pair({}, { accepts: { echo: (p) => typeof p === 'object' && p !== null } });
    await expect(rpc.call('fail', null)).rejects.toThrow('the handler broke');
    // @ts-expect-error: a method the map does not have
    await expect(rpc.call('nothing', null)).rejects.toThrow('no method nothing');
    // @ts-expect-error: params of the wrong type
    await expect(rpc.call('echo', 7)).rejects.toThrow('echo: malformed parameters');
  });

  it('params that cannot be cloned reject the call, and the next call goes through', async () => {
    const { rpc } = pair();
    // @ts-expect-error: a function is neither cloneable nor of the params' type
    await expect(rpc.call('echo', { text: () => 'x', steps: 0 })).rejects.toThrow(/clone/i);
    expect(await rpc.call('echo', { text: 'next', steps: 0 })).toBe('NEXT');
  });

  it('an abort sends a cancel and rejects at once; the handler sees its signal aborted', async () => {
    const { rpc, worker } = pair({
      cancelled: () => new DOMException('Test was cancelled', 'AbortError'),
    });
    const controller = new AbortController();
    const pending = rpc.call('wait', null, { signal: controller.signal });
    await until(() => seen.started.includes('wait'));
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      name: 'AbortError',
      message: 'Test was cancelled',
    });
    expect(worker.sent.at(-1)).toEqual({ type: 'cancel', id: 1 });
    await until(() => seen.aborted.includes('wait'));
    expect(await rpc.call('echo', { text: 'after', steps: 0 })).toBe('AFTER');
  });

  it('serial: calls run one after another, and a cancel acts on one still queued', async () => {
    seen.started.length = 0;
    const { rpc } = pair({}, { serial: true });
    const first = new AbortController();
    const second = new AbortController();
    const waiting = rpc.call('wait', null, { signal: first.signal });
    const queued = rpc.call('echo', { text: 'queued', steps: 0 }, { signal: second.signal });
    const third = rpc.call('echo', { text: 'third', steps: 0 });
    await until(() => seen.started.includes('wait'));
    await tick();
    expect(seen.started).toEqual(['wait']);
    second.abort();
    first.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    expect(await third).toBe('THIRD');
    expect(seen.started).toEqual(['wait', 'third']);
  });
});

describe('worker RPC: a dead worker', () => {
  it('an error event fails every open call, terminates, and refuses later calls', async () => {
    const { rpc, worker } = pair();
    const a = rpc.call('wait', null);
    const b = rpc.call('wait', null);
    worker.fail('boom');
    await expect(a).rejects.toThrow('test worker failed: boom');
    await expect(b).rejects.toThrow('test worker failed: boom');
    expect(worker.terminated).toBe(true);
    expect(rpc.stopped).toBe(true);
    await expect(rpc.call('echo', { text: 'x', steps: 0 })).rejects.toThrow(
      'test worker was stopped',
    );
  });

  it('its Web Lock freed (closed or killed): every open call fails with a clear error', async () => {
    const locks = new OneThreadLocks();
    const { rpc, worker } = pair({ locks });
    const open = rpc.call('wait', null);
    await until(() => locks.names().length === 1 && locks.queued(locks.names()[0]) === 1);
    const [lock] = locks.names();
    expect(lock).toMatch(/^memlens-rpc-/);
    locks.release(lock); // the worker's hold ends, as when it closes itself or is killed
    await expect(open).rejects.toThrow('the test worker stopped (closed or crashed)');
    expect(worker.terminated).toBe(true);
  });

  it('a call waits until the worker holds its lock, so a long call cannot make it look dead', async () => {
    const locks = new OneThreadLocks();
    const { rpc, worker } = pair({ locks });
    const order: unknown[] = [];
    worker.addEventListener('message', (event) => order.push(event.data.type));
    await rpc.call('echo', { text: 'x', steps: 0 });
    expect(order).toEqual(['held', 'result']);
  });

  it('counts as dead when it never says held, failing what was pending', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { rpc, worker } = pair({ locks: new OneThreadLocks(), heldWithinMs: 1_000 }, {}, false);
    const open = rpc.call('wait', null);
    const failure = open.catch((error: unknown) => error);
    expect(worker.sent[0]).toMatchObject({ type: 'hold' });
    vi.advanceTimersByTime(999);
    expect(rpc.stopped).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await failure).toMatchObject({
      message: 'the test worker stopped (closed or crashed)',
    });
    expect(worker.terminated).toBe(true);
  });

  it('a worker that says held in time is left alone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const locks = new OneThreadLocks();
    const { rpc, worker } = pair({ locks, heldWithinMs: 1_000 });
    await until(() => locks.names().length === 1 && locks.queued(locks.names()[0]) === 1);
    vi.advanceTimersByTime(5_000);
    expect(worker.terminated).toBe(false);
    expect(rpc.stopped).toBe(false);
  });
});

describe('worker RPC: a stalled step', () => {
  it('stops the worker when a call hears nothing for stallMs, naming the step', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { rpc, worker } = pair({ stallMs: 1_000 });
    const failure = rpc.call('wait', null).catch((error: unknown) => error);
    await until(() => seen.started.includes('wait'));
    vi.advanceTimersByTime(999);
    expect(rpc.stopped).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await failure).toMatchObject({
      message: 'the test worker stalled: its step "wait" sent nothing for 1 s, so it was stopped',
    });
    expect(worker.terminated).toBe(true);
  });

  it('leaves no timer behind a call that answered', async () => {
    const { rpc } = pair({ stallMs: 50 });
    const steps: number[] = [];
    expect(
      await rpc.call('echo', { text: 'x', steps: 3 }, { onProgress: (n) => steps.push(n) }),
    ).toBe('X');
    await new Promise((r) => setTimeout(r, 120));
    expect(rpc.stopped).toBe(false);
  });
});
