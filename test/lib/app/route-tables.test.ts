import { describe, expect, it } from 'vitest';
import { READS_BENCHMARKS, routeReadsBenchmarks } from '../../../src/lib/app/route-tables.ts';
import { navEntries } from '../../../src/lib/app/nav.ts';
import { BENCHMARK_DEFS } from '../../../src/lib/benchmarks/registry.ts';
import { FIXTURE_BENCHMARK } from '../benchmarks/fixture-benchmark.ts';

describe('routeReadsBenchmarks', () => {
  it('loads the conversation benchmarks for the pages that read them, and only those', () => {
    const reading = navEntries()
      .filter((e) => routeReadsBenchmarks(e.id))
      .map((e) => e.id);
    expect(reading).toEqual(['benchmarks', 'mydata', 'reproduce', 'playground', 'console']);
  });

  it('leaves them out for the overview, InMind, the paper pages and Embeddings', () => {
    for (const id of ['home', 'inmind', 'locomo-conv', 'memuse', 'utilmem', 'embeddings']) {
      expect(routeReadsBenchmarks(id), id).toBe(false);
    }
  });

  it('reads an unknown page as the first page, which the router shows for it', () => {
    expect(routeReadsBenchmarks('no-such-page')).toBe(READS_BENCHMARKS.home);
    expect(routeReadsBenchmarks('', [])).toBe(false);
  });

  it('gives a benchmark added to the registry its kind of page', () => {
    const nav = navEntries([...BENCHMARK_DEFS, FIXTURE_BENCHMARK]);
    expect(routeReadsBenchmarks('fixture-mem', nav)).toBe(READS_BENCHMARKS.paper);
  });
});
