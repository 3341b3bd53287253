// Long searches run in slices that give the event loop a turn (progress, cancel, a responsive page).

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The search was cancelled', 'AbortError');
}

export interface SliceOptions {
  /** Work between two yields, in ms. */
  sliceMs: number;
  now: () => number;
  yieldNow: () => Promise<void>;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number }) => void;
}

/** Cuts a loop into slices: `check` reads the clock once and, past the budget, yields. */
export class SliceClock {
  private sliceStart: number;
  private readonly started: number;
  private slices = 1;
  private longest = 0;

  constructor(
    private readonly options: SliceOptions,
    private readonly total: number,
  ) {
    this.started = options.now();
    this.sliceStart = this.started;
  }

  /** A promise to await when the slice is over (progress reported, event loop given a turn). */
  check(done: number): Promise<void> | null {
    const t = this.options.now();
    return t - this.sliceStart >= this.options.sliceMs ? this.pause(t, done) : null;
  }

  private async pause(t: number, done: number): Promise<void> {
    const { onProgress, yieldNow, signal, now } = this.options;
    this.longest = Math.max(this.longest, t - this.sliceStart);
    onProgress?.({ done, total: this.total });
    await yieldNow();
    if (signal?.aborted) throw abortError(signal);
    this.slices++;
    this.sliceStart = now();
  }

  finish(): { slices: number; longestSliceMs: number; elapsedMs: number } {
    const end = this.options.now();
    this.longest = Math.max(this.longest, end - this.sliceStart);
    this.options.onProgress?.({ done: this.total, total: this.total });
    return { slices: this.slices, longestSliceMs: this.longest, elapsedMs: end - this.started };
  }
}
