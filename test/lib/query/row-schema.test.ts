import { describe, expect, it } from 'vitest';
import { RowDecodeError, anyRow, rowSchema } from '../../../src/lib/query/row-schema.ts';

const decode = rowSchema({
  id: 'number',
  name: 'string',
  note: 'string?',
  tags: 'string[]',
  side: ['asked', 'used'],
});

describe('rowSchema', () => {
  it('passes a row that fits, typed', () => {
    const row = decode({ id: 1, name: 'a', note: null, tags: ['x'], side: 'used', extra: 2 }, 0);
    expect(row.id + 1).toBe(2);
    expect(row.side).toBe('used');
  });

  it.each([
    [
      { id: '1', name: 'a', note: null, tags: [], side: 'used' },
      'row 4, column id: expected number, got string "1"',
    ],
    [
      { id: 1, name: null, note: null, tags: [], side: 'used' },
      'column name: expected string, got null',
    ],
    [
      { id: 1, name: 'a', tags: [], side: 'used' },
      'column note: expected string?, got nothing (no such column)',
    ],
    [
      { id: 1, name: 'a', note: null, tags: [1], side: 'used' },
      'column tags: expected string[], got a list',
    ],
    [
      { id: 1, name: 'a', note: null, tags: [], side: 'both' },
      'column side: expected one of asked, used, got string "both"',
    ],
  ])('names the column and what it held: %j', (row, message) => {
    expect(() => decode(row, 3)).toThrow(RowDecodeError);
    expect(() => decode(row, 3)).toThrow(message);
  });

  it('anyRow hands rows on unchanged', () => {
    const row = { a: 1 };
    expect(anyRow(row, 0)).toBe(row);
  });
});
