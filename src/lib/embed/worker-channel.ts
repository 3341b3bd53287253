// Request/response over the embed worker's messages: each request gets every message with its id
// until it says it is finished. A worker that dies fails every open request.
import type { FromWorker, ToWorker } from './worker-protocol.ts';

type Listener = (message: FromWorker) => void;

export class WorkerChannel {
  private nextId = 1;
  private readonly listeners = new Map<number, { onMessage: Listener; onFail: Listener }>();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      this.listeners.get(event.data.id)?.onMessage(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.failAll(`embedding worker failed: ${event.message || 'script error'}`);
    };
  }

  /** Sends `build(id)`; `onMessage` sees every reply until `close(id)`. */
  open(build: (id: number) => ToWorker, onMessage: Listener, onFail: Listener): number {
    const id = this.nextId++;
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

  terminate(): void {
    this.failAll('embedding worker was stopped');
    this.worker.terminate();
  }
}
