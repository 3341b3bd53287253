import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import type { SqlRow } from '../../../src/lib/db/engine.ts';
import { OKABE_ITO, sourcePointer, type ChartDef } from '../../../src/lib/charts/chart-kit.ts';
import { inmindCharts } from '../../../src/lib/charts/paper-charts.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS } from '../../../src/lib/benchmarks/papers.ts';
import { domainCountsSpec } from '../../../src/lib/charts/domain-counts.ts';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import {
  colorRanges,
  dataMarkLabels,
  prettyJson,
  renderSvg,
  resultsCatalog,
  unitSpecs,
} from './chart-harness.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await resultsCatalog();
});

afterAll(async () => {
  await catalog.engine.close();
});

const miniLm = inmindCharts('MiniLM')
  .filter((d) => d.id.startsWith('inmind-table1'))
  .map((d) => ({ ...d, id: `${d.id}-minilm` }));
const CHARTS: ChartDef[] = [...PAPERS.flatMap((p) => PAPER_CHARTS[p]), ...miniLm, OVERVIEW_CHART];
const PROVENANCE = ['table', 'section', 'source_line', 'note'];

function valueOf(label: string): string {
  return label.split(' | ')[2];
}

describe.each(CHARTS.map((def) => ({ id: def.id, def })))('chart $id', ({ id, def }) => {
  let rows: SqlRow[];
  let spec: TopLevelSpec;

  beforeAll(async () => {
    rows = await catalog.query(def.sql);
    spec = def.spec(rows);
  });

  it('matches its spec snapshot (a Vega-Lite fixture with the released data inline)', async () => {
    await expect(await prettyJson(spec)).toMatchFileSnapshot(`./__snapshots__/${id}.vl.json`);
  });

  it('draws exactly one labelled data mark per query row, reading `label | metric | value`', async () => {
    expect(rows.length).toBeGreaterThan(0);
    const labels = dataMarkLabels(await renderSvg(spec));
    expect(labels).toHaveLength(rows.length);
    for (const l of labels) expect(l.split(' | '), l).toHaveLength(3);
    expect(labels.map(valueOf).sort()).toEqual(rows.map((r) => String(r.value_text)).sort());
  });

  it('gives every data mark a provenance tooltip; decorations stay out of the accessibility tree', () => {
    for (const unit of unitSpecs(spec)) {
      const mark = unit.mark as { aria?: boolean; tooltip?: boolean };
      const encoding = unit.encoding as Record<string, { field?: string }[] | object> | undefined;
      if (mark.aria === false) {
        expect(encoding?.description).toBeUndefined();
        continue;
      }
      expect(mark.tooltip).toBe(true);
      const fields = (encoding?.tooltip as { field?: string }[]).map((t) => t.field);
      expect(fields).toEqual(expect.arrayContaining(PROVENANCE));
      expect(encoding?.description).toEqual({ field: 'aria', type: 'nominal' });
    }
  });

  it('filters by legend, uses Okabe–Ito colours and has a text alternative', () => {
    const params = unitSpecs(spec).flatMap((u) => (u.params ?? []) as { bind?: string }[]);
    expect(params.some((p) => p.bind === 'legend')).toBe(true);
    const palette: string[] = Object.values(OKABE_ITO);
    for (const c of colorRanges(spec)) expect(palette).toContain(c);
    expect(spec.description?.length).toBeGreaterThan(40);
  });

  it('points to where the paper prints the numbers', () => {
    expect(sourcePointer(def.source, 'paper.txt', rows)).toMatch(/paper\.txt lines? \d+/);
  });
});

describe('the SQL behind the charts', () => {
  const count = async (sql: string) => (await catalog.query(sql)).length;

  it('covers all of LoCoMo-Conv Table 4 across its two charts', async () => {
    const [recall, response] = PAPER_CHARTS['locomo-conv'];
    const table = await count(
      `SELECT * FROM results WHERE paper = 'locomo-conv' AND "table" = 'Table 4'`,
    );
    expect((await count(recall.sql)) + (await count(response.sql))).toBe(table);
  });

  it('draws every InMind Table 1 and Table 2 cell', async () => {
    const [scores, deltas, table2] = inmindCharts();
    const t1 = await count(`SELECT * FROM results WHERE paper = 'inmind' AND "table" = 'Table 1'`);
    expect((await count(scores.sql)) + (await count(deltas.sql))).toBe(t1);
    expect(await count(table2.sql)).toBe(
      await count(`SELECT * FROM results WHERE paper = 'inmind' AND "table" = 'Table 2'`),
    );
  });

  it('orders the backbone application line first (the InMind skeleton test reads it first)', async () => {
    const rows = await catalog.query(inmindCharts()[0].sql);
    const backbone = rows.filter((r) => r.system === 'Backbone').map((r) => r.metric);
    expect(backbone).toEqual(['application', 'target_recall']);
  });

  it('gives each variant arrow of LoCoMo-Conv Table 4 its base value, consistent with the printed delta', async () => {
    for (const def of PAPER_CHARTS['locomo-conv']) {
      for (const r of await catalog.query(def.sql)) {
        if (r.delta === '') expect(r.base_value).toBe(r.value);
        else expect(Number(r.value) - Number(r.base_value)).toBeCloseTo(Number(r.delta), 9);
      }
    }
  });

  it('tells the overview story: in every paper the best recall beats the best use', async () => {
    const rows = await catalog.query(OVERVIEW_CHART.sql);
    expect(rows.map((r) => `${r.paper}/${r.side}`)).toEqual(
      PAPERS.flatMap((p) => [`${p}/asked`, `${p}/used`]),
    );
    for (const p of PAPERS) {
      const [asked, used] = rows.filter((r) => r.paper === p);
      expect(Number(asked.pct), p).toBeGreaterThan(Number(used.pct));
    }
    const inmind = rows.filter((r) => r.paper === 'inmind');
    expect(inmind.map((r) => [r.value_text, r.system, r.variant])).toEqual([
      ['100.0', 'A-Mem', 'text-embedding-3-large'],
      ['16.0', 'Dense RAG', 'text-embedding-3-large'],
    ]);
  });
});

describe('domain counts (benchmark chart)', () => {
  it('matches its spec snapshot', async () => {
    const spec = domainCountsSpec([
      { domain: 'health_and_wellness', tasks: 46 },
      { domain: 'other', tasks: 3 },
    ]);
    await expect(await prettyJson(spec)).toMatchFileSnapshot(
      './__snapshots__/inmind-domains.vl.json',
    );
    expect(dataMarkLabels(await renderSvg(spec))).toEqual([
      'health and wellness | 46',
      'other | 3',
    ]);
  });
});

describe('sourcePointer', () => {
  const rows = [{ source_line: 141 }, { source_line: 123 }];
  it('names the text file and the line range', () => {
    expect(sourcePointer('Table 1', 'inmind.txt', rows)).toBe('Table 1 · inmind.txt lines 123–141');
    expect(sourcePointer('Table 4', 'x.txt', [{ source_line: 97 }])).toBe(
      'Table 4 · x.txt line 97',
    );
  });
  it('leaves the pointer alone without a file or lines', () => {
    expect(sourcePointer('Overview', '', rows)).toBe('Overview');
    expect(sourcePointer('T', 'x.txt', [])).toBe('T');
  });
});
