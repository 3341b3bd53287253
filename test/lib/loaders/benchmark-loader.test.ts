import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchmarkDef } from '../../../src/lib/benchmarks/benchmark-def.ts';
import {
  collectBenchmarkRows,
  loadBenchmarkRows,
} from '../../../src/lib/loaders/benchmark-loader.ts';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { FIXTURE_BENCHMARK } from '../benchmarks/fixture-benchmark.ts';
import { SITE, siteFetch } from '../data/site-fetch.ts';

const opts = { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() };
let catalog: Catalog;
beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
});
afterAll(async () => {
  await catalog.engine.close();
});

function failing(required: boolean): BenchmarkDef {
  const dataset = FIXTURE_BENCHMARK.dataset;
  if (!dataset) throw new Error('the fixture has a dataset');
  return {
    ...FIXTURE_BENCHMARK,
    dataset: {
      ...dataset,
      required,
      load: () => Promise.reject(new Error('fixture/bees.json: line 3: expected an object')),
    },
  };
}

describe('collectBenchmarkRows over the registry', () => {
  it('loads a registered benchmark through its own adapter into the shared and its own tables', async () => {
    const rows = await collectBenchmarkRows(opts, [FIXTURE_BENCHMARK]);
    expect(rows.turns.map((t) => t.text)).toEqual(['I keep bees on the roof.']);
    expect(rows.files).toEqual({ 'fixture-mem': 'fixture/bees.json' });
    await loadBenchmarkRows(catalog, rows);
    expect(await catalog.query('SELECT note FROM fixture_notes')).toEqual([
      { note: 'from the fixture adapter' },
    ]);
  });

  it('skips an optional benchmark that fails, naming it, and throws for a required one', async () => {
    const rows = await collectBenchmarkRows(opts, [failing(false)]);
    expect(rows.skipped).toEqual(['FixtureMem: fixture/bees.json: line 3: expected an object']);
    await expect(collectBenchmarkRows(opts, [failing(true)])).rejects.toThrow('line 3');
  });

  it('reads the real benchmarks of the site, as before', async () => {
    const rows = await collectBenchmarkRows(opts);
    expect(Object.keys(rows.files)).toEqual([
      'locomo',
      'locomo-plus',
      'locomo-conv',
      'locomo-conv composed',
      'memuse',
    ]);
    expect(rows.skipped).toEqual([]);
  });
});
