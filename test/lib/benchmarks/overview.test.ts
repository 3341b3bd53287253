import { describe, expect, it } from 'vitest';
import { OVERVIEW_CHART, overviewParts } from '../../../src/lib/benchmarks/overview.ts';
import { BENCHMARK_DEFS, PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import type { BenchmarkDef } from '../../../src/lib/benchmarks/benchmark-def.ts';
import { overviewSql } from '../../../src/lib/charts/overview.ts';

const EXTRA = {
  id: 'extra',
  label: "Extra's",
  paper: 'extra',
  page: null,
  dataset: null,
  protocols: [],
  overview: [{ side: 'asked', measure: 'm', pct: 'value', who: '"row"', where: "paper = 'extra'" }],
} satisfies BenchmarkDef;

describe('the home overview, from the registry', () => {
  it('takes every paper with candidates, in registry order, under its label', () => {
    const parts = overviewParts();
    expect(parts.map((p) => p.paper)).toEqual([...PAPERS]);
    expect(parts.map((p) => p.label)).toEqual(['InMind', 'LoCoMo-Conv', 'MemUse', 'UtilMem']);
    expect(parts.every((p) => p.candidates.length === 2)).toBe(true);
    expect(OVERVIEW_CHART.sql).toBe(overviewSql(parts));
  });

  it('adds a benchmark folder that lists candidates, labels quoted, last in order', () => {
    const sql = overviewSql(overviewParts([...BENCHMARK_DEFS, EXTRA]));
    expect(sql).toContain(`WHEN 'extra' THEN 'Extra''s'`);
    expect(sql).toContain("'utilmem', 'extra']");
    expect(sql).toContain("FROM results WHERE paper = 'extra'");
  });

  it('skips a benchmark with no paper or no candidates', () => {
    const noPaper = { ...EXTRA, paper: null };
    const noCandidates = { ...EXTRA, overview: undefined };
    expect(overviewParts([noPaper, noCandidates])).toEqual([]);
  });
});
