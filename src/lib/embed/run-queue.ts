// The hub's one queue: embedding runs go one at a time, in the order asked, whatever page or
// model asked. A run whose signal aborted while it waited never starts.

export class RunQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Runs queued or running. */
  get pending(): number {
    return this.waiting;
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.waiting++;
    const result = this.tail.then(() => {
      signal?.throwIfAborted();
      return task();
    });
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.tail = settled;
    void settled.then(() => this.waiting--);
    return result;
  }

  /** Resolves once everything queued so far has settled. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
