// One line a timed figure in the benchmark scripts: its median beside its goal and its runs.
import { median as medianOrNull } from '../../src/lib/analysis/stats.ts';

/** The median of `xs`, NaN for none (a benchmark that timed nothing prints NaN, not a guess). */
export const medianOf = (xs: readonly number[]): number => medianOrNull(xs) ?? Number.NaN;

/** "goal G ms, ratio R met" (or "NOT met"); "(no goal)" where none was set. */
export function goalVerdict(median: number, goal: number | null): string {
  if (goal === null) return '(no goal)';
  return `goal ${goal} ms, ratio ${(median / goal).toFixed(2)} ${median <= goal ? 'met' : 'NOT met'}`;
}

/** `  LABEL  median M ms   runs a, b, c   VERDICT`, the label padded to `width`. */
export function medianLine(
  label: string,
  width: number,
  xs: readonly number[],
  goal: number | null,
): string {
  const m = medianOf(xs);
  const runs = xs.map((x) => x.toFixed(0)).join(', ');
  return `  ${label.padEnd(width)} median ${m.toFixed(0).padStart(6)} ms   runs ${runs}   ${goalVerdict(m, goal)}`;
}
