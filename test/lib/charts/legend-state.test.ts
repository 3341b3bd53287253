import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { OVERVIEW_CHART } from '../../../src/lib/benchmarks/overview.ts';
import { PAPER_CHARTS } from '../../../src/lib/benchmarks/papers.ts';
import {
  knownEntries,
  legendParam,
  pickedEntries,
  toggledEntries,
  withLegendSelection,
} from '../../../src/lib/charts/legend-state.ts';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';
import { renderSvg, resultsCatalog } from './chart-harness.ts';

let catalog: Catalog;
let overview: TopLevelSpec;
const charts: { id: string; spec: TopLevelSpec }[] = [];

beforeAll(async () => {
  catalog = await resultsCatalog();
  overview = OVERVIEW_CHART.spec(await catalog.query(OVERVIEW_CHART.sql));
  for (const def of PAPERS.flatMap((p) => PAPER_CHARTS[p]))
    charts.push({ id: def.id, spec: def.spec(await catalog.query(def.sql)) });
});

afterAll(async () => {
  await catalog.engine.close();
});

/** Opacity per series label, read from the data marks' `label | series | value` aria-labels. */
function opacities(svg: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [, attrs] of svg.matchAll(/<path\b([^>]*aria-label="[^"]*"[^>]*)>/g)) {
    const label = /aria-label="([^"]*)"/.exec(attrs)?.[1].split(' | ')[1] ?? '';
    const opacity = /\bopacity="([^"]*)"/.exec(attrs)?.[1] ?? '1';
    out.set(label, (out.get(label) ?? new Set()).add(opacity));
  }
  return out;
}

describe('the legend filter of a chart', () => {
  it('is found in every paper chart, with its entries from the colour scale', () => {
    for (const { id, spec } of charts) {
      const param = legendParam(spec);
      expect(param, id).not.toBeNull();
      expect(param?.domain.length, id).toBeGreaterThan(1);
    }
    expect(legendParam(overview)).toEqual({
      name: 'sidePick',
      field: 'side_label',
      domain: ['Recall (asked for, or retrieved)', 'Use (needed, not asked for)'],
    });
  });

  it('keeps only entries the legend shows, in its order', () => {
    const param = legendParam(overview);
    if (!param) throw new Error('no legend param');
    expect(
      knownEntries(param, [
        'nonsense',
        'Use (needed, not asked for)',
        'Recall (asked for, or retrieved)',
      ]),
    ).toEqual(['Recall (asked for, or retrieved)', 'Use (needed, not asked for)']);
    expect(knownEntries({ ...param, domain: [] }, ['b', 'a', 'b'])).toEqual(['b', 'a']);
  });

  it('toggles one entry on or off, keeping the legend order', () => {
    const param = { name: 'p', field: 'f', domain: ['a', 'b', 'c'] };
    expect(toggledEntries(param, ['c'], 'a')).toEqual(['a', 'c']);
    expect(toggledEntries(param, ['a', 'c'], 'a')).toEqual(['c']);
    expect(toggledEntries(param, [], 'zzz')).toEqual([]);
  });

  it('draws a picked entry bright and the others faded, from the spec alone', async () => {
    const picked = withLegendSelection(overview, ['Use (needed, not asked for)']);
    const drawn = opacities(await renderSvg(picked));
    expect(drawn.get('Use (needed, not asked for)')).toEqual(new Set(['1']));
    expect(drawn.get('Recall (asked for, or retrieved)')).toEqual(new Set(['0.15']));
    const plain = opacities(await renderSvg(overview));
    expect(plain.get('Recall (asked for, or retrieved)')).toEqual(new Set(['1']));
  });

  it('leaves the original spec alone and returns it as it is when nothing is picked', () => {
    const before = JSON.stringify(overview);
    withLegendSelection(overview, ['Use (needed, not asked for)']);
    expect(JSON.stringify(overview)).toBe(before);
    expect(withLegendSelection(overview, [])).toBe(overview);
  });

  it("reads the picked entries from the selection's signal", async () => {
    const spec = withLegendSelection(overview, ['Use (needed, not asked for)']);
    const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
    await view.runAsync();
    expect(pickedEntries(view.signal('sidePick'), 'side_label')).toEqual([
      'Use (needed, not asked for)',
    ]);
    view.finalize();
    expect(pickedEntries({}, 'side_label')).toEqual([]);
    expect(pickedEntries(null, 'side_label')).toEqual([]);
  });
});
