import { describe, expect, it } from 'vitest';
import { compile, type TopLevelSpec } from 'vega-lite';
import { View, parse } from 'vega';
import {
  datasetRows,
  diffRows,
  syncDatasets,
  withDrawnDatasets,
} from '../../../src/lib/charts/vega-data.ts';

interface Row {
  id: string;
  v: number;
  on: boolean;
}

describe('diffing rows against a view’s tuples', () => {
  it('modifies changed fields only, inserts new keys, removes missing ones', () => {
    const a = { id: 'a', v: 1, on: false };
    const b = { id: 'b', v: 2, on: false };
    const next: Row[] = [
      { id: 'a', v: 1, on: true },
      { id: 'c', v: 3, on: false },
    ];
    const diff = diffRows([a, b], next, 'id');
    expect(diff.modifies).toEqual([{ tuple: a, field: 'on', value: true }]);
    expect(diff.inserts).toEqual([{ id: 'c', v: 3, on: false }]);
    expect(diff.removes).toEqual([b]);
  });

  it('inserts a repeated key as a row of its own, and finds nothing in equal rows', () => {
    const a = { id: 'a', v: 1, on: false };
    expect(diffRows([a], [a, a], 'id').inserts).toHaveLength(1);
    const same = diffRows([a], [{ ...a }], 'id');
    expect(same.inserts.length + same.modifies.length + same.removes.length).toBe(0);
  });
});

const spec = (rows: Row[]): TopLevelSpec => ({
  datasets: { rows },
  data: { name: 'rows' },
  mark: 'point',
  encoding: {
    x: { field: 'v', type: 'quantitative' },
    size: { condition: { test: 'datum.on', value: 100 }, value: 10 },
  },
});

async function headless(rows: Row[]): Promise<View> {
  const view = new View(parse(compile(spec(rows)).spec), { renderer: 'none' });
  await view.runAsync();
  return view;
}

describe('syncing a running view’s dataset', () => {
  const start: Row[] = [
    { id: 'a', v: 1, on: false },
    { id: 'b', v: 2, on: false },
  ];

  it('brings the view to the new rows, keeping the tuples that stay', async () => {
    const view = await headless(start);
    const [kept] = view.data('rows');
    const next: Row[] = [
      { id: 'a', v: 1, on: true },
      { id: 'c', v: 5, on: false },
    ];
    const change = await syncDatasets(view, [datasetRows('rows', next, 'id')]);
    expect(change).toEqual({ inserted: 1, modified: 1, removed: 1 });
    const now: Row[] = view.data('rows');
    expect(now.map((r) => [r.id, r.on])).toEqual([
      ['a', true],
      ['c', false],
    ]);
    expect(view.data('rows')[0]).toBe(kept);
    view.finalize();
  });

  it('runs calls on one view in turn, so overlapping syncs do not insert twice', async () => {
    const view = await headless(start);
    const next: Row[] = [...start, { id: 'z', v: 9, on: true }];
    const [first, second] = await Promise.all([
      syncDatasets(view, [datasetRows('rows', next, 'id')]),
      syncDatasets(view, [datasetRows('rows', next, 'id')]),
    ]);
    expect(first.inserted).toBe(1);
    expect(second).toEqual({ inserted: 0, modified: 0, removed: 0 });
    expect(view.data('rows')).toHaveLength(3);
    view.finalize();
  });
});

describe('a spec with the data a view draws now', () => {
  it('takes the named datasets from the view, and leaves a spec without them alone', async () => {
    const view = await headless([{ id: 'a', v: 1, on: false }]);
    await syncDatasets(view, [datasetRows('rows', [{ id: 'a', v: 1, on: true }], 'id')]);
    const drawn = withDrawnDatasets(spec([{ id: 'a', v: 1, on: false }]), view);
    expect(drawn.datasets).toEqual({ rows: [{ id: 'a', v: 1, on: true }] });
    const plain: TopLevelSpec = { data: { values: [] }, mark: 'point' };
    expect(withDrawnDatasets(plain, view)).toBe(plain);
    view.finalize();
  });
});
