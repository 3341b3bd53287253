import { describe, expect, it } from 'vitest';
import {
  CsvRecordReader,
  CsvSyntaxError,
  parseCsvRecords,
} from '../../../src/lib/common/csv-records.ts';

function syntaxError(fn: () => unknown): CsvSyntaxError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CsvSyntaxError) return e;
    throw e;
  }
  throw new Error('expected a CsvSyntaxError');
}

describe('parseCsvRecords', () => {
  it('splits plain fields and records', () => {
    const recs = parseCsvRecords('a,b,c\nd,e,f\n');
    expect(recs.map((r) => r.fields)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    expect(recs.map((r) => r.line)).toEqual([1, 2]);
  });

  it('keeps commas inside quoted fields', () => {
    const [rec] = parseCsvRecords('"Dense (MiniLM) (Wang et al., 2020)",x\n');
    expect(rec.fields).toEqual(['Dense (MiniLM) (Wang et al., 2020)', 'x']);
  });

  it('unescapes doubled quotes inside quoted fields', () => {
    const [rec] = parseCsvRecords('"printed ""16,384""",y\n');
    expect(rec.fields).toEqual(['printed "16,384"', 'y']);
  });

  it('accepts an empty quoted field and trailing empty field', () => {
    const [rec] = parseCsvRecords('"",a,\n');
    expect(rec.fields).toEqual(['', 'a', '']);
  });

  it('strips a leading byte-order mark', () => {
    const [rec] = parseCsvRecords('\uFEFFpaper,table\n');
    expect(rec.fields).toEqual(['paper', 'table']);
  });

  it('treats CRLF like LF and reports the same line numbers', () => {
    const lf = parseCsvRecords('a,b\nc,d\n');
    const crlf = parseCsvRecords('a,b\r\nc,d\r\n');
    expect(crlf).toEqual(lf);
  });

  it('handles a last record without a newline', () => {
    const recs = parseCsvRecords('a,b\nc,d');
    expect(recs.map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('skips blank lines but keeps counting physical lines', () => {
    const recs = parseCsvRecords('a\n\nb\n');
    expect(recs.map((r) => [r.fields[0], r.line])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
  });

  it('numbers a record after a quoted newline by its physical line', () => {
    const recs = parseCsvRecords('"multi\nline",x\nnext,y\n');
    expect(recs[0].fields).toEqual(['multi\nline', 'x']);
    expect(recs[0].line).toBe(1);
    expect(recs[1].line).toBe(3);
  });
});

describe('strict quoting', () => {
  it('refuses a quote inside an unquoted field, at its column', () => {
    const err = syntaxError(() => parseCsvRecords('a,b\nx,1"2\n'));
    expect([err.line, err.column, err.expected]).toEqual([
      2,
      4,
      'quotes only around a whole field',
    ]);
  });

  it('refuses text after a closing quote', () => {
    const err = syntaxError(() => parseCsvRecords('"a"b,c\n'));
    expect(err.message).toBe(
      'line 1, column 4: expected "," or a line end after a closing quote, found "b"',
    );
    expect(err.detail).toBe(
      'column 4: expected "," or a line end after a closing quote, found "b"',
    );
  });

  it('reports a quote never closed on the line it opened', () => {
    const err = syntaxError(() => parseCsvRecords('a\n"open\nmore\n'));
    expect([err.line, err.column, err.found]).toEqual([2, null, 'the end of the file']);
  });
});

describe('CsvRecordReader', () => {
  it('assembles a record across pushed lines, with any delimiter', () => {
    const reader = new CsvRecordReader('\t');
    expect(reader.push(1, 'a\t"two')).toBeNull();
    expect(reader.push(2, 'lines"\tc')).toEqual({ line: 1, fields: ['a', 'two\nlines', 'c'] });
    expect(reader.push(3, '')).toBeNull();
    expect(reader.push(4, 'x\t')).toEqual({ line: 4, fields: ['x', ''] });
    expect(() => reader.end()).not.toThrow();
  });
});
