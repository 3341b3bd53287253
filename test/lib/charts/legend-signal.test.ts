import { describe, expect, it } from 'vitest';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { colorEncoding, filteredOpacity, legendFilter } from '../../../src/lib/charts/chart-kit.ts';
import { legendParam, withLegendSelection } from '../../../src/lib/charts/legend-state.ts';
import { currentLegend, watchLegend } from '../../../src/lib/charts/legend-signal.ts';

const SPEC: TopLevelSpec = {
  data: { values: [{ s: 'a' }, { s: 'b' }, { s: 'c' }] },
  params: [legendFilter('pick', 's')],
  mark: 'point',
  encoding: {
    x: { field: 's', type: 'nominal' },
    color: colorEncoding('s', ['a', 'b', 'c'], ['#000000', '#E69F00', '#56B4E9'], 'S'),
    opacity: filteredOpacity('pick'),
  },
};

async function viewOf(spec: TopLevelSpec): Promise<vega.View> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  return view;
}

describe('watching a legend filter', () => {
  const param = legendParam(SPEC);
  if (!param) throw new Error('no legend param');

  it('reads what the view shows now', async () => {
    const view = await viewOf(withLegendSelection(SPEC, ['b', 'c']));
    expect(currentLegend(view, param)).toEqual(['b', 'c']);
    view.finalize();
  });

  it('reports a change of the selection, and nothing once unsubscribed', async () => {
    const view = await viewOf(withLegendSelection(SPEC, ['b']));
    const seen: string[][] = [];
    const stop = watchLegend(view, param, (values) => seen.push(values));
    // What a legend click does: a new tuple into the selection's store.
    await view
      .data('pick_store', [{ unit: '', fields: [{ type: 'E', field: 's' }], values: ['c'] }])
      .runAsync();
    expect(seen).toEqual([['c']]);
    await view.data('pick_store', []).runAsync();
    expect(seen).toEqual([['c'], []]);
    stop();
    await view
      .data('pick_store', [{ unit: '', fields: [{ type: 'E', field: 's' }], values: ['a'] }])
      .runAsync();
    expect(seen).toHaveLength(2);
    view.finalize();
  });
});
