// How long an embedding run has left, from the texts/s measured so far in this run: texts
// answered from a cache count as done but not toward the rate.

/** Texts done of a run's total, those answered from a cache among them. */
export interface TextCounts {
  done: number;
  total: number;
  cached: number;
}

export interface Eta {
  textsPerSecond: number;
  secondsLeft: number;
}

/** Below this much measured time, a rate is noise: no estimate yet. */
const MIN_MS = 500;

/** One run's clock: feed it each progress report; it answers once a batch has finished. */
export class EtaClock {
  private start: { ms: number; embedded: number } | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  update(p: TextCounts): Eta | null {
    const embedded = p.done - p.cached;
    const ms = this.now();
    this.start ??= { ms, embedded };
    const elapsed = ms - this.start.ms;
    const made = embedded - this.start.embedded;
    if (elapsed < MIN_MS || made <= 0) return null;
    const textsPerSecond = (made * 1000) / elapsed;
    return { textsPerSecond, secondsLeft: Math.max(0, p.total - p.done) / textsPerSecond };
  }
}

/** "about 3 min 50 s left at 31 texts/s". */
export function describeEta(eta: Eta): string {
  const s = Math.ceil(eta.secondsLeft);
  const left = s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
  const rate =
    eta.textsPerSecond >= 10 ? eta.textsPerSecond.toFixed(0) : eta.textsPerSecond.toFixed(1);
  return `about ${left} left at ${rate} texts/s`;
}
