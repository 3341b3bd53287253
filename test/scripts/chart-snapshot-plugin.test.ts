import { describe, expect, it } from 'vitest';
import { chartSnapshotFromCsvs } from '../../scripts/lib/chart-snapshot-plugin.ts';
import { buildChartSnapshot } from '../../src/lib/benchmarks/chart-snapshot.ts';
import { resultsCatalog } from '../lib/charts/chart-harness.ts';
import { repoRoot } from '../lib/data/site-fetch.ts';

describe('chart snapshot plugin', () => {
  it('computes from data/results/*.csv the rows the site computes from the same files', async () => {
    const built = await chartSnapshotFromCsvs(repoRoot);
    const site = await buildChartSnapshot(await resultsCatalog());
    expect(built).toEqual(site);
    expect(Object.keys(built.charts).length).toBeGreaterThan(10);
  });
});
