import { describe, expect, it } from 'vitest';
import { goalVerdict, medianLine, medianOf } from '../../scripts/lib/bench-report.ts';

describe('bench report lines', () => {
  it('say met at the goal and NOT met past it, with the ratio', () => {
    expect(goalVerdict(45_000, 45_000)).toBe('goal 45000 ms, ratio 1.00 met');
    expect(goalVerdict(57_300, 45_000)).toBe('goal 45000 ms, ratio 1.27 NOT met');
    expect(goalVerdict(10, null)).toBe('(no goal)');
  });

  it('print the median beside the runs, and NaN when nothing was timed', () => {
    expect(medianLine('cold', 6, [30, 10, 20], 25)).toBe(
      '  cold   median     20 ms   runs 30, 10, 20   goal 25 ms, ratio 0.80 met',
    );
    expect(medianOf([])).toBeNaN();
  });
});
