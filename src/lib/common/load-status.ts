/** 'deferred': a step that runs only once something asks for it (a page that reads its tables). */
export type StepState = 'pending' | 'running' | 'done' | 'error' | 'deferred';

export interface LoadStep {
  id: string;
  label: string;
  state: StepState;
  detail: string;
  /** What a step that finished could not load (an optional file that failed its check, a skipped dataset). */
  warnings?: string[];
}

/** What a step's work returns: a summary, and optionally what it had to leave out. */
export type StepOutcome = string | { detail: string; warnings: string[] };

/** The share of the work asked for that is over; a deferred step is not asked for yet. */
export function progressOf(steps: readonly LoadStep[]): number {
  const asked = steps.filter((s) => s.state !== 'deferred');
  if (asked.length === 0) return 1;
  return asked.filter((s) => s.state === 'done' || s.state === 'error').length / asked.length;
}
