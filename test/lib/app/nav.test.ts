import { describe, expect, it } from 'vitest';
import { navEntries } from '../../../src/lib/app/nav.ts';
import { BENCHMARK_DEFS } from '../../../src/lib/benchmarks/registry.ts';
import { FIXTURE_BENCHMARK } from '../benchmarks/fixture-benchmark.ts';

describe('navEntries', () => {
  it('puts the overview first, then each benchmark with a page, then the tools', () => {
    expect(navEntries().map((e) => e.label)).toEqual([
      'Overview',
      'InMind',
      'LoCoMo-Conv',
      'MemUse',
      'UtilMem',
      'Embeddings',
      'Benchmarks',
      'Your data',
      'Reproduce',
      'Playground',
      'SQL',
    ]);
  });

  it('shows a benchmark added to the registry, with no other change', () => {
    const nav = navEntries([...BENCHMARK_DEFS, FIXTURE_BENCHMARK]);
    expect(nav.find((e) => e.id === 'fixture-mem')).toEqual({
      id: 'fixture-mem',
      label: 'FixtureMem',
      kind: 'paper',
    });
    expect(nav.findIndex((e) => e.id === 'fixture-mem')).toBeLessThan(
      nav.findIndex((e) => e.id === 'embeddings'),
    );
  });
});
