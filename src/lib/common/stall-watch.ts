// Time-outs on progress, not on total time: each step of a download (the answer, then each chunk)
// must settle within a bound, so a slow but live connection never hits it and a stalled one is
// stopped with a message that names what stalled.
import { joinBytes } from './bytes.ts';

/** Each `step` must settle within `ms`, else the fetch (its body too) is aborted with `onStall()`. */
export class StallWatch {
  readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  stalled = false;
  constructor(
    private readonly ms: number,
    private readonly onStall: () => Error,
    outer?: AbortSignal,
  ) {
    if (outer?.aborted) this.controller.abort(outer.reason);
    outer?.addEventListener('abort', () => this.controller.abort(outer.reason), { once: true });
  }
  async step<T>(work: Promise<T>): Promise<T> {
    clearTimeout(this.timer);
    let stall: Error | null = null;
    const timeout = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => {
        this.stalled = true;
        stall = this.onStall();
        reject(stall);
        this.controller.abort(stall);
      }, this.ms);
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (err) {
      // The abort can reject the pending read ("BodyStreamBuffer was aborted") before the race
      // hears the timer: the reader is told why it stopped, not how.
      throw stall ?? err;
    } finally {
      clearTimeout(this.timer);
    }
  }
}

/** `response`'s whole body, each chunk a step of `watch`; `onBytes` hears the running count. */
export async function readWatched(
  response: Response,
  watch: StallWatch,
  onBytes: (read: number) => void = () => undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(await watch.step(response.arrayBuffer()));
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await watch.step(reader.read());
      if (done) break;
      parts.push(value);
      read += value.length;
      onBytes(read);
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  }
  return joinBytes(parts, read);
}
