import { describe, expect, it } from 'vitest';
import {
  DUCKDB_READY_MARK,
  FIRST_CHART_MARK,
  markOnce,
  markTime,
} from '../../../src/lib/app/load-marks.ts';

function timeline() {
  const marks: { name: string; startTime: number }[] = [];
  let now = 0;
  return {
    marks,
    mark(name: string) {
      marks.push({ name, startTime: (now += 10) });
    },
    getEntriesByName(name: string) {
      return marks.filter((m) => m.name === name);
    },
  };
}

describe('load marks', () => {
  it('keeps the first mark of each name only', () => {
    const t = timeline();
    expect(markTime(FIRST_CHART_MARK, t)).toBeNull();
    markOnce(FIRST_CHART_MARK, t);
    markOnce(FIRST_CHART_MARK, t);
    markOnce(DUCKDB_READY_MARK, t);
    expect(t.marks.map((m) => m.name)).toEqual([FIRST_CHART_MARK, DUCKDB_READY_MARK]);
    expect(markTime(FIRST_CHART_MARK, t)).toBe(10);
    expect(markTime(DUCKDB_READY_MARK, t)).toBe(20);
  });
});
