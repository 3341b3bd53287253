import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import {
  overviewPointText,
  overviewRow,
  type OverviewDatum,
} from '../../../src/lib/charts/overview.ts';
import { resultsCatalog } from './chart-harness.ts';

let catalog: Catalog;
let rows: OverviewDatum[];

beforeAll(async () => {
  catalog = await resultsCatalog();
  rows = (await catalog.query(OVERVIEW_CHART.sql)).map(overviewRow);
}, 60_000);

afterAll(() => catalog?.engine.close());

describe("the overview's list beside its chart", () => {
  it("says every point in the chart's unit (%, one decimal, as the point's label)", () => {
    expect(rows.length).toBe(8);
    for (const d of rows) {
      const text = overviewPointText(d);
      expect(text, text).toMatch(new RegExp(`: ${d.pct.toFixed(1).replace('.', '\\.')}%`));
      // No bare 0–1 score and no "× 100" beside a chart in percent.
      expect(text, text).not.toMatch(/: \.\d|× 100/);
    }
  });

  it('keeps the printed value beside it where it reads differently', () => {
    const conv = rows.filter((d) => d.paper === 'locomo-conv').map(overviewPointText);
    expect(conv).toHaveLength(2);
    for (const text of conv) expect(text).toMatch(/response quality: \d+\.\d% \(printed \.\d+\)$/);
    const inmind = rows.find((d) => d.paper === 'inmind' && d.side === 'asked');
    expect(inmind && overviewPointText(inmind)).toMatch(
      /^Naive question \(Table 1 Naive\): [\d.]+%$/,
    );
  });
});
