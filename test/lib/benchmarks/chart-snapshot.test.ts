import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import {
  CHART_SNAPSHOT_FILE,
  buildChartSnapshot,
  loadChartSnapshot,
  parseChartSnapshot,
  sameRows,
  snapshotCharts,
  snapshotRows,
  type ChartSnapshot,
} from '../../../src/lib/benchmarks/chart-snapshot.ts';
import { EMBEDDING_CHOICES } from '../../../src/lib/charts/inmind-table1.ts';
import { inmindCharts } from '../../../src/lib/charts/paper-charts.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS } from '../../../src/lib/benchmarks/papers.ts';
import { classifyAsset } from '../../../src/lib/offline/precache.ts';
import { resultsCatalog } from '../charts/chart-harness.ts';

let catalog: Catalog;
let snapshot: ChartSnapshot;

beforeAll(async () => {
  catalog = await resultsCatalog();
  snapshot = await buildChartSnapshot(catalog);
});

describe('chart snapshot', () => {
  it('covers the overview, every paper chart and every InMind embedding view, once each', () => {
    const sqls = snapshotCharts().map((d) => d.sql);
    expect(new Set(sqls).size).toBe(sqls.length);
    const wanted = [
      OVERVIEW_CHART,
      ...Object.values(PAPER_CHARTS).flat(),
      ...EMBEDDING_CHOICES.flatMap((c) => inmindCharts(c)),
    ];
    for (const def of wanted) expect(sqls).toContain(def.sql);
  });

  it('holds the rows the live query returns, and survives a JSON round trip', async () => {
    const parsed = parseChartSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(parsed).not.toBeNull();
    for (const def of snapshotCharts()) {
      const live = await catalog.query(def.sql);
      expect(live.length).toBeGreaterThan(0);
      const rows = snapshotRows(parsed, def.sql);
      expect(rows).toEqual(live);
      expect(sameRows(rows ?? [], live)).toBe(true);
    }
  });

  it('answers null for an unknown query, a missing snapshot or a malformed file', () => {
    expect(snapshotRows(snapshot, 'SELECT 1')).toBeNull();
    expect(snapshotRows(null, OVERVIEW_CHART.sql)).toBeNull();
    expect(parseChartSnapshot(null)).toBeNull();
    expect(parseChartSnapshot({ version: 2, charts: {} })).toBeNull();
    expect(parseChartSnapshot({ version: 1, charts: { q: [1] } })).toBeNull();
    expect(parseChartSnapshot({ version: 1, charts: { q: [{ a: undefined }] } })).toBeNull();
  });

  it('is precached with the shell, so the first chart also draws offline', () => {
    expect(classifyAsset(CHART_SNAPSHOT_FILE)).toBe('shell');
  });

  it('sameRows compares values and order', () => {
    expect(sameRows([{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 2 }])).toBe(true);
    expect(sameRows([{ a: 1 }, { a: 2 }], [{ a: 2 }, { a: 1 }])).toBe(false);
    expect(sameRows([{ a: 1 }], [])).toBe(false);
  });

  it('loads from the site root, and treats a missing or broken file as no snapshot', async () => {
    const body = JSON.stringify(snapshot);
    const seen: string[] = [];
    const ok = (async (input: string | URL | Request) => {
      seen.push(String(input));
      return new Response(body);
    }) as typeof fetch;
    const loaded = await loadChartSnapshot('http://site.test/memlens/', ok);
    expect(seen).toEqual([`http://site.test/memlens/${CHART_SNAPSHOT_FILE}`]);
    expect(snapshotRows(loaded, OVERVIEW_CHART.sql)).toEqual(
      snapshotRows(snapshot, OVERVIEW_CHART.sql),
    );
    const missing = (async () => new Response('no', { status: 404 })) as typeof fetch;
    expect(await loadChartSnapshot('http://site.test/', missing)).toBeNull();
    const broken = (async () => new Response('{')) as typeof fetch;
    expect(await loadChartSnapshot('http://site.test/', broken)).toBeNull();
  });
});
