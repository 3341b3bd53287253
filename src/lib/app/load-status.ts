export type StepState = 'pending' | 'running' | 'done' | 'error';

export interface LoadStep {
  id: string;
  label: string;
  state: StepState;
  detail: string;
}

export function progressOf(steps: readonly LoadStep[]): number {
  if (steps.length === 0) return 1;
  return steps.filter((s) => s.state === 'done' || s.state === 'error').length / steps.length;
}
