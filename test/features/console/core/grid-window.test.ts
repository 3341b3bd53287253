import { describe, expect, it } from 'vitest';
import { visibleRows } from '../../../../src/features/console/core/grid-window.ts';

describe('visibleRows', () => {
  it('draws the rows in view and a margin, never the whole result', () => {
    expect(visibleRows(0, 280, 28, 100_000, 5)).toEqual({ start: 0, end: 16 });
    expect(visibleRows(28 * 50_000, 280, 28, 100_000, 5)).toEqual({ start: 49_995, end: 50_016 });
  });

  it('stays inside the result at its ends and when empty', () => {
    expect(visibleRows(1e9, 280, 28, 10, 5)).toEqual({ start: 10, end: 10 });
    expect(visibleRows(0, 280, 28, 3)).toEqual({ start: 0, end: 3 });
    expect(visibleRows(0, 280, 28, 0)).toEqual({ start: 0, end: 0 });
  });
});
