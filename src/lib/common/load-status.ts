export type StepState = 'pending' | 'running' | 'done' | 'error';

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

export function progressOf(steps: readonly LoadStep[]): number {
  if (steps.length === 0) return 1;
  return steps.filter((s) => s.state === 'done' || s.state === 'error').length / steps.length;
}
