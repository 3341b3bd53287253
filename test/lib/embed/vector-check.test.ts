import { describe, expect, it } from 'vitest';
import {
  describeDropped,
  describeFault,
  rowFault,
  rowsFaults,
  UNIT_NORM_TOLERANCE,
} from '../../../src/lib/embed/vector-check.ts';

const shape = { dim: 3, normalize: true };
const unit = (i: number) => Float32Array.from([0, 1, 2], (j) => (j === i ? 1 : 0));

describe('vector checks', () => {
  it('passes unit rows of the dimension, each different', () => {
    expect(rowsFaults([unit(0), unit(1), unit(2)], shape)).toEqual([]);
    expect(rowFault(Float32Array.of(0.6, 0.8, 0), 0, 3, shape)).toBeNull();
  });

  it('fails each check on its own', () => {
    expect(rowFault(Float32Array.of(1, 0), 0, 2, shape)?.check).toBe('dimension');
    expect(rowFault(Float32Array.of(1, Number.NaN, 0), 0, 3, shape)).toEqual({
      check: 'finite',
      detail: 'number 1 is NaN',
    });
    expect(rowFault(Float32Array.of(0, 0, Infinity), 0, 3, shape)?.detail).toBe(
      'number 2 is Infinity',
    );
    expect(rowFault(new Float32Array(3), 0, 3, shape)?.check).toBe('not constant');
    expect(rowFault(new Float32Array(3), 0, 3, { dim: 3, normalize: false })?.check).toBe(
      'not constant',
    );
    expect(rowFault(Float32Array.of(2, 0, 0), 0, 3, shape)).toEqual({
      check: 'unit norm',
      detail: 'length 2.000, not 1 (the model normalises)',
    });
    expect(rowFault(Float32Array.of(2, 0, 0), 0, 3, { dim: 3, normalize: false })).toBeNull();
  });

  it('allows float32 rounding of the norm, and no more than the tolerance', () => {
    expect(rowFault(Float32Array.of(1 + UNIT_NORM_TOLERANCE / 2, 0, 0), 0, 3, shape)).toBeNull();
    expect(rowFault(Float32Array.of(1 + UNIT_NORM_TOLERANCE * 2, 0, 0), 0, 3, shape)?.check).toBe(
      'unit norm',
    );
  });

  it('reads a row inside a flat matrix by its offset', () => {
    const flat = Float32Array.of(1, 0, 0, 0, Number.NaN, 0);
    expect(rowFault(flat, 0, 3, shape)).toBeNull();
    expect(rowFault(flat, 3, 3, shape)?.detail).toBe('number 1 is NaN');
  });

  it('fails rows that are all the same, naming every one after the first', () => {
    const faults = rowsFaults([unit(1), unit(1), undefined, unit(1)], shape);
    expect(faults.map((f) => [f.row, f.check])).toEqual([
      [1, 'not constant'],
      [3, 'not constant'],
    ]);
    expect(faults[0].detail).toBe('the same numbers as row 0, as every one of the 3 rows is');
    // One row, or two that differ, is not constant.
    expect(rowsFaults([unit(1)], shape)).toEqual([]);
    expect(rowsFaults([unit(1), unit(1), unit(2)], shape)).toEqual([]);
  });

  it('skips misses, stops at max, and takes a shape per row', () => {
    const rows = [undefined, Float32Array.of(Number.NaN, 0, 0), new Float32Array(3)];
    expect(rowsFaults(rows, shape).map((f) => f.row)).toEqual([1, 2]);
    expect(rowsFaults(rows, shape, 1).map((f) => f.row)).toEqual([1]);
    const wide = [Float32Array.of(1, 0), unit(0)];
    const byRow = (r: number) => ({ dim: r === 0 ? 2 : 3, normalize: true });
    expect(rowsFaults(wide, byRow)).toEqual([]);
    expect(rowsFaults(wide, shape).map((f) => f.check)).toEqual(['dimension']);
  });

  it('says the file, the row and the check', () => {
    const [fault] = rowsFaults([unit(0), Float32Array.of(0, Number.NaN, 0)], shape);
    expect(describeFault('nan.parquet: ', fault)).toBe(
      'nan.parquet: row 1 fails the finite check (number 1 is NaN)',
    );
    expect(describeDropped([fault], 'tiny-bert fp32')).toMatch(
      /^1 stored tiny-bert fp32 vector failed its check and was dropped .* computed again \(the first: row 1 fails the finite check/,
    );
  });
});
