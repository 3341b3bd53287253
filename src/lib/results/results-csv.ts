import { isPaperId, type PaperId } from '../benchmarks/registry.ts';
import { CsvSyntaxError, parseCsvRecords, type CsvRecord } from '../common/csv-records.ts';

export const RESULT_COLUMNS = [
  'paper',
  'table',
  'row',
  'column',
  'value',
  'unit',
  'note',
  'section',
  'source_line',
  'system',
  'variant',
  'metric',
  'delta',
] as const;

export type ResultColumn = (typeof RESULT_COLUMNS)[number];

/** One printed number of a paper, with where it was printed. */
export interface ResultRow {
  paper: PaperId;
  table: string;
  row: string;
  column: string;
  value: number;
  /** The value's characters exactly as printed, so precision is never lost. */
  valueText: string;
  unit: string;
  note: string;
  section: string;
  sourceLine: number;
  system: string;
  variant: string;
  metric: string;
  delta: string;
}

export class ResultsCsvError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'ResultsCsvError';
  }
}

const NUMBER_AS_PRINTED = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

type FileLineError = new (file: string, line: number, detail: string) => Error;

/** Records of a results or reproduced CSV; a syntax error names the file and line. */
export function csvRecordsOf(
  text: string,
  file: string,
  FileError: FileLineError = ResultsCsvError,
): CsvRecord[] {
  try {
    return parseCsvRecords(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new FileError(file, error.line, error.detail);
    throw error;
  }
}

export function parseResultsCsv(text: string, file: string): ResultRow[] {
  const records = csvRecordsOf(text, file);
  const header = records[0];
  if (!header) throw new ResultsCsvError(file, 1, 'empty file: expected a header row');
  const expected = RESULT_COLUMNS.join(',');
  if (header.fields.join(',') !== expected) {
    throw new ResultsCsvError(file, header.line, `header must be exactly "${expected}"`);
  }
  return records.slice(1).map((r) => toResultRow(r.fields, file, r.line));
}

function toResultRow(fields: string[], file: string, line: number): ResultRow {
  if (fields.length !== RESULT_COLUMNS.length) {
    throw new ResultsCsvError(
      file,
      line,
      `expected ${RESULT_COLUMNS.length} fields, found ${fields.length}`,
    );
  }
  const get = (c: ResultColumn): string => fields[RESULT_COLUMNS.indexOf(c)];
  const paper = get('paper');
  if (!isPaperId(paper)) {
    throw new ResultsCsvError(file, line, `unknown paper "${paper}"`);
  }
  for (const c of ['table', 'row', 'column', 'unit', 'section'] as const) {
    if (get(c).trim() === '') throw new ResultsCsvError(file, line, `empty ${c}`);
  }
  const valueText = get('value');
  if (!NUMBER_AS_PRINTED.test(valueText)) {
    throw new ResultsCsvError(file, line, `value "${valueText}" is not a number as printed`);
  }
  const sourceLine = Number(get('source_line'));
  if (!Number.isInteger(sourceLine) || sourceLine < 1) {
    throw new ResultsCsvError(
      file,
      line,
      `source_line "${get('source_line')}" is not a line number`,
    );
  }
  return {
    paper,
    table: get('table'),
    row: get('row'),
    column: get('column'),
    value: Number(valueText),
    valueText,
    unit: get('unit'),
    note: get('note'),
    section: get('section'),
    sourceLine,
    system: get('system'),
    variant: get('variant'),
    metric: get('metric'),
    delta: get('delta'),
  };
}
