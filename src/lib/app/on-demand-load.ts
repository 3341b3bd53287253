// A load that runs only once something asks for it, once per target (one DuckDB start): asks
// made together share one run, and once asked it stays wanted, so a new start loads it again.

export class OnDemandLoad<T> {
  private asked = false;
  private target: T | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly load: (target: T) => Promise<void>) {}

  /** Something asked for it, in this start or an earlier one. */
  get wanted(): boolean {
    return this.asked;
  }

  /** Whether it ran, or runs, into the current target. */
  get started(): boolean {
    return this.running !== null;
  }

  /** A new start: the old target and what was loaded into it are gone. */
  reset(): void {
    this.target = null;
    this.running = null;
  }

  /** The target is ready: loads into it now if it was asked for, else waits for an ask. */
  ready(target: T): Promise<void> {
    this.target = target;
    return this.asked ? this.ensure(target) : Promise.resolve();
  }

  /** Asks for it: loads once the target is ready, at most once per target. */
  ask(): Promise<void> {
    this.asked = true;
    return this.target === null ? Promise.resolve() : this.ensure(this.target);
  }

  private ensure(target: T): Promise<void> {
    this.running ??= this.load(target);
    return this.running;
  }
}
