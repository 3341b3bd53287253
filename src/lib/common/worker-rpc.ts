// One typed request/response protocol between the page and a worker: calls by id, progress
// events before the answer, transfer lists both ways, cancel by message, and a worker's death (an
// error event, or the Web Lock it holds for its lifetime freed) failing every call still open.
// The page and the worker are built from the same source (the worker's script checked before it
// runs), so payloads are typed by the method map at the message listener; envelopes are checked.
import { errorMessage } from './error-message.ts';

/** One method: what it takes, what it answers, and what it reports on the way. */
export interface RpcMethod {
  params: unknown;
  result: unknown;
  progress: unknown;
}

/** A method map: `{ [method]: { params; result; progress } }`. */
export type RpcMethods<M> = { [K in keyof M]: RpcMethod };

type Name<M> = keyof M & string;

export interface RpcCall<M extends RpcMethods<M>, K extends Name<M> = Name<M>> {
  type: 'call';
  id: number;
  method: K;
  params: M[K]['params'];
}

export type RpcRequest<M extends RpcMethods<M>> =
  | { [K in Name<M>]: RpcCall<M, K> }[Name<M>]
  | { type: 'cancel'; id: number }
  /** Hold this Web Lock for the worker's lifetime: the page learns of its end when it is freed. */
  | { type: 'hold'; lock: string };

export type RpcReply<G = unknown, R = unknown> =
  | { type: 'progress'; id: number; progress: G }
  | { type: 'result'; id: number; result: R }
  | { type: 'error'; id: number; message: string }
  | { type: 'cancelled'; id: number }
  | { type: 'held' };

/** The part of the Web Locks API liveness uses (navigator.locks where there is one). */
export interface RpcLocks {
  request(name: string, callback: () => unknown): Promise<unknown>;
}

function webLocks(): RpcLocks | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

function typeOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null && 'type' in data ? data.type : undefined;
}

/** The page's side of the worker: a Worker, or a MessagePort with a terminate in tests. */
export interface RpcWorker {
  postMessage(message: unknown, options: { transfer: Transferable[] }): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  terminate(): void;
}

export interface RpcClientOptions {
  /** Names the worker in errors: "<name> failed: …", "the <name> stopped (closed or crashed)". */
  name: string;
  /** What an aborted call rejects with. */
  cancelled?: () => Error;
  /** Web Locks for liveness: navigator.locks unless given; null: no watch. */
  locks?: RpcLocks | null;
  /** A worker that has not taken its lock by then counts as dead. */
  heldWithinMs?: number;
  /**
   * A call that hears nothing (no progress, no answer) for this long stops the worker, naming the
   * step; a bound on progress, not on a call's whole time. Default `STEP_STALL_MS`.
   */
  stallMs?: number;
}

export interface RpcCallOptions<G> {
  signal?: AbortSignal;
  transfer?: Transferable[];
  onProgress?: (progress: G) => void;
}

/** A live worker takes its lock as soon as its script has run: seconds even on a loaded machine. */
const HELD_WITHIN_MS = 20_000;

/**
 * A live worker reports each step (a model file's bytes, each batch embedded, each projection
 * stage) within seconds; five minutes of silence from one call is a stalled worker.
 */
export const STEP_STALL_MS = 300_000;

export class RpcClient<M extends RpcMethods<M>> {
  private nextId = 1;
  private isStopped = false;
  private heldTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each open call, by id: how to fail it. */
  private readonly open = new Map<number, (error: Error) => void>();

  constructor(
    private readonly worker: RpcWorker,
    private readonly options: RpcClientOptions,
  ) {
    // An error event means an exception escaped the worker: its state is unknown, so it is stopped.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const said = 'message' in event && typeof event.message === 'string' ? event.message : '';
      this.terminate(`${options.name} failed: ${said || 'script error'}`);
    });
    this.watchLife(options.locks === undefined ? webLocks() : options.locks);
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  /**
   * A worker that is closed or killed sends nothing, so it holds a Web Lock for its lifetime; the
   * page is granted the lock the moment the worker is gone. One that dies before it takes the
   * lock never says `held`: after `heldWithinMs` it counts as dead.
   */
  private watchLife(locks: RpcLocks | null): void {
    if (!locks || typeof crypto === 'undefined' || typeof crypto.randomUUID !== 'function') return;
    const lock = `memlens-rpc-${crypto.randomUUID()}`;
    const dead = () => {
      if (!this.isStopped) this.terminate(`the ${this.options.name} stopped (closed or crashed)`);
    };
    const onHeld = (event: MessageEvent) => {
      if (typeOf(event.data) !== 'held') return;
      this.worker.removeEventListener('message', onHeld);
      clearTimeout(this.heldTimer);
      void locks.request(lock, dead);
    };
    this.worker.addEventListener('message', onHeld);
    this.post({ type: 'hold', lock });
    this.heldTimer = setTimeout(dead, this.options.heldWithinMs ?? HELD_WITHIN_MS);
  }

  private post(message: RpcRequest<M>, transfer: Transferable[] = []): void {
    this.worker.postMessage(message, { transfer });
  }

  private cancelledError(): Error {
    return this.options.cancelled?.() ?? new DOMException('The call was cancelled', 'AbortError');
  }

  /** Calls `method`; an abort of `signal` sends a cancel and rejects at once. */
  call<K extends Name<M>>(
    method: K,
    params: M[K]['params'],
    options: RpcCallOptions<M[K]['progress']> = {},
  ): Promise<M[K]['result']> {
    const { signal, onProgress } = options;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.isStopped) return reject(new Error(`${this.options.name} was stopped`));
      if (signal?.aborted) return reject(this.cancelledError());
      const stallMs = this.options.stallMs ?? STEP_STALL_MS;
      let stallTimer: ReturnType<typeof setTimeout> | undefined;
      const watch = () => {
        clearTimeout(stallTimer);
        stallTimer = setTimeout(
          () =>
            this.terminate(
              `the ${this.options.name} stalled: its step "${method}" sent nothing for ${stallMs / 1000} s, so it was stopped`,
            ),
          stallMs,
        );
      };
      const settle = (end: () => void) => {
        clearTimeout(stallTimer);
        this.open.delete(id);
        this.worker.removeEventListener('message', onMessage);
        signal?.removeEventListener('abort', onAbort);
        end();
      };
      // The one place payloads are typed: by the method map this worker was built with.
      const onMessage = (event: MessageEvent<RpcReply<M[K]['progress'], M[K]['result']>>) => {
        const reply = event.data;
        if (typeOf(reply) === undefined || !('id' in reply) || reply.id !== id) return;
        if (reply.type === 'progress') {
          watch();
          onProgress?.(reply.progress);
        } else if (reply.type === 'result') settle(() => resolve(reply.result));
        else if (reply.type === 'error') settle(() => reject(new Error(reply.message)));
      };
      const onAbort = () => {
        this.post({ type: 'cancel', id });
        settle(() => reject(this.cancelledError()));
      };
      this.open.set(id, (error) => settle(() => reject(error)));
      this.worker.addEventListener('message', onMessage);
      signal?.addEventListener('abort', onAbort, { once: true });
      const call: RpcCall<M, K> = { type: 'call', id, method, params };
      watch();
      try {
        this.post(call, options.transfer);
      } catch (error) {
        settle(() => reject(error)); // params that cannot be cloned
      }
    });
  }

  /** Stops the worker; every open call fails with `reason`. */
  terminate(reason = `${this.options.name} was stopped`): void {
    clearTimeout(this.heldTimer);
    if (this.isStopped) return;
    this.isStopped = true;
    for (const fail of [...this.open.values()]) fail(new Error(reason));
    this.worker.terminate();
  }
}

/** A handler's answer whose buffers move to the page instead of being copied. */
export class Transferred<T> {
  constructor(
    readonly value: T,
    readonly transfer: Transferable[],
  ) {}
}

export function transferring<T>(value: T, transfer: Transferable[]): Transferred<T> {
  return new Transferred(value, transfer);
}

export interface RpcCallContext<G> {
  /** Aborted when the page cancels this call. */
  signal: AbortSignal;
  progress(value: G, transfer?: Transferable[]): void;
}

type Answer<R> = R | Transferred<R>;

export type RpcHandlers<M extends RpcMethods<M>> = {
  [K in Name<M>]: (
    params: M[K]['params'],
    call: RpcCallContext<M[K]['progress']>,
  ) => Answer<M[K]['result']> | Promise<Answer<M[K]['result']>>;
};

/** The worker's side: its global scope (or a MessagePort in tests). */
export interface RpcPort {
  postMessage(message: unknown, options: { transfer: Transferable[] }): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface RpcServeOptions<M> {
  /** Calls run one after another, in the order they came; a cancel still acts at once. */
  serial?: boolean;
  /** Checks a method's params before its handler trusts them. */
  accepts?: { [K in keyof M]?: (params: unknown) => boolean };
  /** Web Locks for `hold`: navigator.locks unless given. */
  locks?: RpcLocks | null;
}

/** Answers the page's calls with `handlers`. */
export function serveRpc<M extends RpcMethods<M>>(
  port: RpcPort,
  handlers: RpcHandlers<M>,
  options: RpcServeOptions<M> = {},
): void {
  const running = new Map<number, AbortController>();
  // Calls wait for the lock to be held (a long synchronous call would delay `held` past its
  // deadline) and, when serial, for the call before.
  let ready: Promise<unknown> = Promise.resolve();
  const post = (reply: RpcReply, transfer: Transferable[] = []) =>
    port.postMessage(reply, { transfer });

  const hold = (lock: string) => {
    const locks = options.locks === undefined ? webLocks() : options.locks;
    if (!locks) return;
    const held = new Promise<void>((taken) => {
      void locks.request(lock, () => {
        post({ type: 'held' });
        taken();
        return new Promise<never>(() => undefined);
      });
    });
    ready = Promise.all([ready, held]);
  };

  const answer = async <K extends Name<M>>(call: RpcCall<M, K>, signal: AbortSignal) => {
    const { id, method } = call;
    const progress = (value: M[K]['progress'], transfer: Transferable[] = []) => {
      if (!signal.aborted) post({ type: 'progress', id, progress: value }, transfer);
    };
    // A call cancelled while it waited never starts.
    if (signal.aborted) return post({ type: 'cancelled', id });
    try {
      if (!Object.hasOwn(handlers, method)) throw new Error(`no method ${method}`);
      if (options.accepts?.[method]?.(call.params) === false) {
        throw new Error(`${method}: malformed parameters`);
      }
      const out = await handlers[method](call.params, { signal, progress });
      if (signal.aborted) post({ type: 'cancelled', id });
      else if (out instanceof Transferred)
        post({ type: 'result', id, result: out.value }, out.transfer);
      else post({ type: 'result', id, result: out });
    } catch (error) {
      post(
        signal.aborted
          ? { type: 'cancelled', id }
          : { type: 'error', id, message: errorMessage(error) },
      );
    }
  };

  const start = (call: RpcCall<M>) => {
    const controller = new AbortController();
    running.set(call.id, controller);
    const done = ready
      .then(() => answer(call, controller.signal))
      .finally(() => running.delete(call.id));
    if (options.serial) ready = done;
  };

  port.addEventListener('message', (event: MessageEvent<RpcRequest<M>>) => {
    const message = event.data;
    if (typeOf(message) === undefined) return;
    if (message.type === 'cancel') running.get(message.id)?.abort();
    else if (message.type === 'hold') hold(message.lock);
    else if (message.type === 'call') start(message);
  });
}
