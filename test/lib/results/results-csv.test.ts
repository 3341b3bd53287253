import { describe, expect, it } from 'vitest';
import {
  RESULT_COLUMNS,
  ResultsCsvError,
  parseResultsCsv,
} from '../../../src/lib/results/results-csv';

const HEADER = RESULT_COLUMNS.join(',');
const ROW =
  'inmind,Table 1,BM25,Naive,53.6,%,group: Naive RAG,4.2 Main Results,127,BM25,BM25,naive,';

function catchError(fn: () => unknown): ResultsCsvError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ResultsCsvError);
    return e as ResultsCsvError;
  }
  throw new Error('expected a ResultsCsvError');
}

describe('parseResultsCsv', () => {
  it('names the file and line of a CSV syntax error', () => {
    const err = catchError(() => parseResultsCsv(`${HEADER}\n${ROW}\n"open,x\n`, 'x.csv'));
    expect(err.message).toBe(
      'x.csv:3: expected a closing quote for the field opened on this line, found the end of the file',
    );
  });

  it('parses a valid row, keeping the value text as printed', () => {
    const rows = parseResultsCsv(`${HEADER}\n${ROW}\n`, 'x.csv');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      paper: 'inmind',
      table: 'Table 1',
      row: 'BM25',
      column: 'Naive',
      value: 53.6,
      valueText: '53.6',
      unit: '%',
      sourceLine: 127,
      system: 'BM25',
      metric: 'naive',
      delta: '',
    });
  });

  it('keeps trailing zeros and signs in valueText', () => {
    const text = [
      HEADER,
      'inmind,T,r,c,84.0,%,,s,1,,,,',
      'inmind,T,r,c,+8.8,pp,,s,1,,,,',
      'inmind,T,r,c,-16.0,pp,,s,1,,,,',
      'inmind,T,r,c,.5,x,,s,1,,,,',
    ].join('\n');
    const rows = parseResultsCsv(text, 'x.csv');
    expect(rows.map((r) => r.valueText)).toEqual(['84.0', '+8.8', '-16.0', '.5']);
    expect(rows.map((r) => r.value)).toEqual([84, 8.8, -16, 0.5]);
  });

  it('parses a quoted row label with commas and a note with doubled quotes', () => {
    const text = `${HEADER}\ninmind,Table 1,"A-RAG (Du et al., 2026)",Naive,97.6,%,"printed ""97.6""",4.2 Main Results,129,A-RAG,MiniLM,naive,\n`;
    const [row] = parseResultsCsv(text, 'x.csv');
    expect(row.row).toBe('A-RAG (Du et al., 2026)');
    expect(row.note).toBe('printed "97.6"');
  });

  it('accepts a BOM and CRLF line endings', () => {
    const rows = parseResultsCsv(`\uFEFF${HEADER}\r\n${ROW}\r\n`, 'x.csv');
    expect(rows).toHaveLength(1);
    expect(rows[0].delta).toBe('');
  });

  it('rejects an empty file, naming file and line 1', () => {
    const e = catchError(() => parseResultsCsv('', 'empty.csv'));
    expect(e.file).toBe('empty.csv');
    expect(e.line).toBe(1);
    expect(e.message).toMatch(/^empty\.csv:1: /);
  });

  it('rejects a wrong header, naming file and line', () => {
    const bad = HEADER.replace('source_line', 'line');
    const e = catchError(() => parseResultsCsv(`${bad}\n${ROW}\n`, 'data/results/bad.csv'));
    expect(e.file).toBe('data/results/bad.csv');
    expect(e.line).toBe(1);
    expect(e.message).toContain('data/results/bad.csv:1:');
    expect(e.message).toContain('header');
  });

  it('reports the header line when blank lines precede it', () => {
    const e = catchError(() => parseResultsCsv(`\n\npaper,table\n`, 'h.csv'));
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/^h\.csv:3: header/);
  });

  it('rejects a header with columns in the wrong order', () => {
    const cols = [...RESULT_COLUMNS];
    [cols[0], cols[1]] = [cols[1], cols[0]];
    const e = catchError(() => parseResultsCsv(`${cols.join(',')}\n`, 'o.csv'));
    expect(e.message).toMatch(/^o\.csv:1: header must be exactly/);
  });

  it('rejects a bad value, naming file:line', () => {
    const text = [HEADER, ROW, ROW.replace(',53.6,', ',53.6%,')].join('\n');
    const e = catchError(() => parseResultsCsv(text, 'v.csv'));
    expect(e.file).toBe('v.csv');
    expect(e.line).toBe(3);
    expect(e.message).toBe('v.csv:3: value "53.6%" is not a number as printed');
  });

  it.each(['16,384', '1 / 2', '–', '', 'NaN', '1e3', '12.', 'abc'])(
    'rejects the value %j',
    (value) => {
      const fields = ROW.split(',');
      fields[4] = value.includes(',') ? `"${value}"` : value;
      const e = catchError(() => parseResultsCsv(`${HEADER}\n${fields.join(',')}\n`, 'v.csv'));
      expect(e.message).toMatch(/^v\.csv:2: value /);
    },
  );

  it('counts physical lines across CRLF and quoted newlines when reporting errors', () => {
    const multi = ROW.replace('group: Naive RAG', '"a\nb"');
    const text = [HEADER, multi, ROW.replace(',53.6,', ',x,')].join('\r\n');
    const e = catchError(() => parseResultsCsv(text, 'm.csv'));
    expect(e.line).toBe(4);
  });

  it('rejects a wrong field count', () => {
    const e = catchError(() => parseResultsCsv(`${HEADER}\n${ROW},extra\n`, 'f.csv'));
    expect(e.message).toBe('f.csv:2: expected 13 fields, found 14');
  });

  it('rejects an unknown paper', () => {
    const e = catchError(() =>
      parseResultsCsv(`${HEADER}\n${ROW.replace('inmind', 'nope')}\n`, 'p.csv'),
    );
    expect(e.message).toBe('p.csv:2: unknown paper "nope"');
  });

  it.each(['table', 'row', 'column', 'unit', 'section'] as const)('rejects an empty %s', (col) => {
    const fields = ROW.split(',');
    fields[RESULT_COLUMNS.indexOf(col)] = ' ';
    const e = catchError(() => parseResultsCsv(`${HEADER}\n${fields.join(',')}\n`, 'e.csv'));
    expect(e.message).toBe(`e.csv:2: empty ${col}`);
  });

  it.each(['', '0', '-3', '1.5', 'x'])('rejects the source_line %j', (sl) => {
    const fields = ROW.split(',');
    fields[RESULT_COLUMNS.indexOf('source_line')] = sl;
    const e = catchError(() => parseResultsCsv(`${HEADER}\n${fields.join(',')}\n`, 's.csv'));
    expect(e.message).toMatch(/^s\.csv:2: source_line /);
  });

  it('accepts a header-only file as zero rows', () => {
    expect(parseResultsCsv(`${HEADER}\n`, 'h.csv')).toEqual([]);
  });
});
