// The one run state machine of Reproduce, its single view's and its comparison's: one run at a
// time, keyed by what was asked; a new key aborts the run before it (whose progress and result are
// then dropped), cancel stops it (what was embedded stays cached), errors end it with a phase.
import { errorMessage } from '../common/error-message.ts';
import { createStore, patch } from '../common/store.ts';

/** What each step writes into a view's state, its phase included. */
export interface RunSteps<State, Result> {
  /** The running phase, and what a new run clears. */
  started: Partial<State>;
  finished: (result: Result) => Partial<State>;
  failed: (err: unknown, message: string) => Partial<State>;
  /** The cancelled phase, and what a cancel clears. */
  cancelled: Partial<State>;
}

/** Reports a step of the run in progress; a no-op once it was aborted. */
export type Report<State> = (part: Partial<State>) => void;

export type RunWork<State, Result> = (
  signal: AbortSignal,
  report: Report<State>,
) => Promise<Result>;

/** A view's runs extend it with their `request`, which keys what was asked and starts the work. */
export class RunMachine<State extends { phase: string }, Result> {
  private readonly state;
  readonly subscribe;
  readonly getSnapshot;
  private current: AbortController | null = null;
  private lastKey = '';

  constructor(
    private readonly idle: State,
    private readonly steps: RunSteps<State, Result>,
  ) {
    this.state = createStore(idle);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.get;
  }

  /** Whether `key` differs from the run asked last. */
  protected isNew(key: string): boolean {
    return key !== this.lastKey;
  }

  /** Aborts the run in progress and starts `work` for `key`. */
  protected run(key: string, work: RunWork<State, Result>): void {
    const signal = this.replace(key);
    patch(this.state, this.steps.started);
    const report: Report<State> = (part) => {
      if (!signal.aborted) patch(this.state, part);
    };
    work(signal, report).then(
      (result) => report(this.steps.finished(result)),
      (err: unknown) => report(this.steps.failed(err, errorMessage(err))),
    );
  }

  /** Aborts the run in progress and goes back to idle, `key` being the last asked. */
  protected clear(key: string): void {
    this.replace(key);
    this.current = null;
    this.state.set(this.idle);
  }

  /** Stops the run in progress; the same key then runs again. */
  cancel(): void {
    if (this.state.get().phase !== 'running') return;
    this.current?.abort();
    this.current = null;
    this.lastKey = '';
    patch(this.state, this.steps.cancelled);
  }

  dispose(): void {
    this.current?.abort();
    this.current = null;
    this.state.close();
  }

  private replace(key: string): AbortSignal {
    this.lastKey = key;
    this.current?.abort();
    this.current = new AbortController();
    return this.current.signal;
  }
}
