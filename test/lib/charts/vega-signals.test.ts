import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import { View, changeset, parse } from 'vega';
import { intervalOf, onInterval, onPick, pickedOf } from '../../../src/lib/charts/vega-signals.ts';
import {
  SCORE_BRUSH,
  seriesOfUnit,
  similarityHistogramSpec,
} from '../../../src/lib/charts/similarity-histogram.ts';
import { MAP_PICK, embeddingMapSpec } from '../../../src/lib/charts/embedding-map.ts';

describe('decoding selection values', () => {
  it('reads an interval low end first, and nothing else as one', () => {
    expect(intervalOf({ start: [0.4, 0.2] }, 'start')).toEqual([0.2, 0.4]);
    expect(intervalOf({}, 'start')).toBeNull();
    expect(intervalOf({ start: [0.1] }, 'start')).toBeNull();
    expect(intervalOf({ start: ['a', 'b'] }, 'start')).toBeNull();
    expect(intervalOf({ start: [0, Infinity] }, 'start')).toBeNull();
    expect(intervalOf(null, 'start')).toBeNull();
  });

  it('reads a picked string value', () => {
    expect(pickedOf({ key: ['q:1'] }, 'key')).toBe('q:1');
    expect(pickedOf({ key: [3] }, 'key')).toBeNull();
    expect(pickedOf({}, 'key')).toBeNull();
  });
});

async function headless(spec: ReturnType<typeof similarityHistogramSpec>): Promise<View> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  return view;
}

/** What a drag writes: one tuple in the selection's store (Vega-Lite's own format). */
function brush(view: View, [a, b]: [number, number]) {
  const tuple = {
    unit: 'child__facet_facet_naive',
    fields: [{ field: 'start', channel: 'x', type: 'R' }],
    values: [[a, b]],
  };
  return view
    .change(
      `${SCORE_BRUSH}_store`,
      changeset()
        .remove(() => true)
        .insert([tuple]),
    )
    .runAsync();
}

describe('listening to a real Vega view', () => {
  it('hears the histogram brush the spec declares, settled, and stops when unsubscribed', async () => {
    const bins = [
      { series: 'naive', population: 'target' as const, start: 0, end: 0.5, density: 1, count: 1 },
    ];
    const view = await headless(similarityHistogramSpec(bins, 'cosine', { value: null }));
    const heard: ([number, number] | null)[] = [];
    const units: (string | null)[] = [];
    const stop = onInterval(
      view,
      SCORE_BRUSH,
      'start',
      (r, unit) => {
        heard.push(r);
        units.push(seriesOfUnit(unit));
      },
      20,
    );
    await brush(view, [0.1, 0.2]);
    await brush(view, [0.3, 0.1]);
    await new Promise((r) => setTimeout(r, 60));
    expect(heard).toEqual([[0.1, 0.3]]);
    expect(units).toEqual(['naive']);
    stop();
    await view
      .change(
        `${SCORE_BRUSH}_store`,
        changeset().remove(() => true),
      )
      .runAsync();
    await new Promise((r) => setTimeout(r, 60));
    expect(heard).toHaveLength(1);
    view.finalize();
  });

  it('hears the map pick', async () => {
    const point = {
      key: 'q:1',
      kind: 'query',
      role: 'query' as const,
      x: 0,
      y: 0,
      lit: false,
      found: false,
      selected: false,
      faded: false,
      score: null,
      id: '1',
      snippet: '',
      aria: '',
      title: 'Query 1',
      group: 'g',
      score_text: 'a query',
    };
    const view = await headless(embeddingMapSpec([point], [], { title: 't' }));
    const heard: (string | null)[] = [];
    onPick(view, MAP_PICK, 'key', (k) => heard.push(k));
    const tuple = { unit: 'layer_1', fields: [{ field: 'key', type: 'E' }], values: ['q:1'] };
    await view.change(`${MAP_PICK}_store`, changeset().insert([tuple])).runAsync();
    await view
      .change(
        `${MAP_PICK}_store`,
        changeset().remove(() => true),
      )
      .runAsync();
    expect(heard).toEqual(['q:1', null]);
    view.finalize();
  });
});
