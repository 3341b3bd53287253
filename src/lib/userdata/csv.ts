import { DatasetFormatError, type JsonObject } from '../datasets/validate.ts';
import type { TextLine } from './lines.ts';
import type { UserRecord } from './record.ts';
import { CsvRecordReader, CsvSyntaxError, type CsvRecord } from '../common/csv-records.ts';

/** Records of streamed lines; a syntax error names the file. */
export async function* csvRows(
  lines: AsyncIterable<TextLine>,
  file: string,
  delimiter: string,
): AsyncGenerator<CsvRecord> {
  const reader = new CsvRecordReader(delimiter);
  try {
    for await (const { line, text } of lines) {
      const record = reader.push(line, text);
      if (record) yield record;
    }
    reader.end();
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw new DatasetFormatError(file, '', error.expected, {
      line: error.line,
      column: error.column,
      found: error.found,
    });
  }
}

/** Records keyed by the header row's names; every row must have as many fields as the header. */
export async function* csvRecords(
  lines: AsyncIterable<TextLine>,
  file: string,
  delimiter = ',',
): AsyncGenerator<UserRecord> {
  let header: string[] | null = null;
  let headerLine = 0;
  let rows = 0;
  for await (const { line, fields } of csvRows(lines, file, delimiter)) {
    if (header === null) {
      header = checkHeader(fields, line, file);
      headerLine = line;
      continue;
    }
    if (fields.length !== header.length) {
      throw new DatasetFormatError(file, '', `${header.length} fields, as in the header`, {
        line,
        found: `${fields.length}`,
      });
    }
    const value: JsonObject = {};
    header.forEach((name, i) => (value[name] = fields[i]));
    rows++;
    yield { line, path: '', value };
  }
  if (header !== null && rows === 0) {
    throw new DatasetFormatError(file, '', 'data rows after the header', {
      line: headerLine,
      found: 'only the header',
    });
  }
}

function checkHeader(fields: string[], line: number, file: string): string[] {
  const names = fields.map((f) => f.trim());
  names.forEach((name, i) => {
    if (name === '') {
      throw new DatasetFormatError(file, '', 'a name for every column in the header', {
        line,
        found: `an empty name for column ${i + 1}`,
      });
    }
    if (names.indexOf(name) !== i) {
      throw new DatasetFormatError(file, '', 'unique column names in the header', {
        line,
        found: `"${name}" twice`,
      });
    }
  });
  return names;
}
