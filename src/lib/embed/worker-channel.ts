// Request/response over the embed worker's messages: each request gets every message with its id
// until it says it is finished. A worker that dies fails every open request.
import type { FromWorker, ToWorker } from './worker-protocol.ts';

type Listener = (message: FromWorker) => void;

/** A live worker takes its lock as soon as its script has run: seconds even on a loaded machine. */
const HELD_WITHIN_MS = 20_000;

export class WorkerChannel {
  private nextId = 1;
  private isStopped = false;
  private readonly listeners = new Map<number, { onMessage: Listener; onFail: Listener }>();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      if (event.data.type === 'held') {
        clearTimeout(this.heldTimer);
        this.watchLock();
      } else this.listeners.get(event.data.id)?.onMessage(event.data);
    };
    // An error event means an exception escaped the worker: its state is unknown, so it is
    // stopped and the embedder starts a new one on the next load.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.terminate(`embedding worker failed: ${event.message || 'script error'}`);
    };
  }

  private readonly lock =
    typeof navigator !== 'undefined' && navigator.locks && typeof crypto.randomUUID === 'function'
      ? `memlens-embed-${crypto.randomUUID()}`
      : null;

  private heldTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * A worker that is closed or killed sends nothing, so it holds a Web Lock for its lifetime;
   * the page is granted the lock the moment the worker is gone and fails what was pending. One
   * that dies before it takes the lock never says `held`: after `heldWithinMs` it counts as dead.
   */
  watchLife(heldWithinMs = HELD_WITHIN_MS): void {
    if (!this.lock) return;
    this.worker.postMessage({ type: 'hold', id: 0, lock: this.lock } satisfies ToWorker);
    this.heldTimer = setTimeout(() => {
      if (!this.isStopped) this.terminate('the embedding worker stopped (closed or crashed)');
    }, heldWithinMs);
  }

  private watchLock(): void {
    if (!this.lock) return;
    void navigator.locks.request(this.lock, () => {
      if (!this.isStopped) this.terminate('the embedding worker stopped (closed or crashed)');
    });
  }

  get stopped(): boolean {
    return this.isStopped;
  }

  /** Sends `build(id)`; `onMessage` sees every reply until `close(id)`. */
  open(build: (id: number) => ToWorker, onMessage: Listener, onFail: Listener): number {
    const id = this.nextId++;
    if (this.isStopped) {
      queueMicrotask(() => onFail({ type: 'error', id, message: 'embedding worker was stopped' }));
      return id;
    }
    this.listeners.set(id, { onMessage, onFail });
    this.worker.postMessage(build(id));
    return id;
  }

  send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  close(id: number): void {
    this.listeners.delete(id);
  }

  private failAll(message: string): void {
    for (const [id, listener] of this.listeners) listener.onFail({ type: 'error', id, message });
    this.listeners.clear();
  }

  terminate(reason = 'embedding worker was stopped'): void {
    clearTimeout(this.heldTimer);
    if (this.isStopped) return;
    this.isStopped = true;
    this.failAll(reason);
    this.worker.terminate();
  }
}
