import { describe, expect, it } from 'vitest';
import { reservedHeight } from '../../../src/lib/charts/reserved-height.ts';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `r${i}`, value: i }));

describe('reservedHeight', () => {
  it('keeps a fixed-height view its height plus its axis', () => {
    expect(reservedHeight({ height: 160, mark: 'bar' })).toBe(160 + 48);
  });

  it('counts the discrete values on y for a step height, from the sort or the rows', () => {
    const y = { field: 'name', type: 'nominal' };
    const spec = { height: { step: 10 }, data: { values: rows(30) }, encoding: { y } };
    expect(reservedHeight(spec)).toBe(30 * 10 + 48);
    const sorted = { ...spec, encoding: { y: { ...y, sort: ['a', 'b'] } } };
    expect(reservedHeight(sorted)).toBe(2 * 10 + 48);
  });

  it('finds y in a layer and adds a title and its subtitle', () => {
    const spec = {
      title: { text: 't', subtitle: 's' },
      data: { values: rows(4) },
      height: { step: 20 },
      layer: [{ mark: 'point', encoding: { y: { field: 'name', type: 'ordinal' } } }],
    };
    expect(reservedHeight(spec)).toBe(44 + 4 * 20 + 48);
  });

  it('stacks vertical concatenations and takes the tallest of horizontal ones', () => {
    const a = { height: 100 };
    const b = { height: 200 };
    expect(reservedHeight({ vconcat: [a, b] })).toBe(148 + 248 + 20);
    expect(reservedHeight({ hconcat: [a, b] })).toBe(248);
  });

  it('wraps facet panels into rows of its columns', () => {
    const spec = {
      data: { values: rows(5) },
      facet: { field: 'name', type: 'nominal' },
      columns: 2,
      spec: { height: 100 },
    };
    expect(reservedHeight(spec)).toBe(3 * (100 + 22 + 48) + 2 * 20);
  });

  it('gives a default for a spec it cannot read', () => {
    expect(reservedHeight(null)).toBe(248);
    expect(reservedHeight({ mark: 'bar' })).toBe(248);
  });
});
