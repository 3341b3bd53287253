import { DatasetFormatError, type JsonObject } from '../datasets/validate.ts';
import type { TextLine } from './lines.ts';
import type { UserRecord } from './record.ts';

interface ParsedRecord {
  line: number;
  fields: string[];
}

/**
 * RFC 4180 records over lines: quoted fields may span lines, `""` is a literal quote, blank lines
 * between records are skipped. Quotes inside an unquoted field are an error, not a guess.
 */
export async function* csvRows(
  lines: AsyncIterable<TextLine>,
  file: string,
  delimiter: string,
): AsyncGenerator<ParsedRecord> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let startLine = 0;
  let quoteLine = 0;
  for await (const { line, text } of lines) {
    if (quoted) {
      field += '\n';
    } else {
      if (text.trim() === '') continue;
      fields = [];
      startLine = line;
    }
    let i = 0;
    for (;;) {
      if (quoted) {
        const close = text.indexOf('"', i);
        if (close < 0) {
          field += text.slice(i);
          break;
        }
        field += text.slice(i, close);
        if (text[close + 1] === '"') {
          field += '"';
          i = close + 2;
          continue;
        }
        quoted = false;
        i = close + 1;
        if (i < text.length && text[i] !== delimiter) {
          throw new DatasetFormatError(
            file,
            '',
            `${delimiterName(delimiter)} or a line end after a closing quote`,
            {
              line,
              column: i + 1,
              found: JSON.stringify(text[i]),
            },
          );
        }
        fields.push(field);
        field = '';
      } else if (text[i] === '"') {
        quoted = true;
        quoteLine = line;
        i++;
        continue;
      } else {
        const next = text.indexOf(delimiter, i);
        const raw = text.slice(i, next < 0 ? text.length : next);
        const stray = raw.indexOf('"');
        if (stray >= 0) {
          throw new DatasetFormatError(file, '', 'quotes only around a whole field', {
            line,
            column: i + stray + 1,
            found: 'a quote inside an unquoted field (quote the field and double the inner quote)',
          });
        }
        fields.push(raw);
        i += raw.length;
      }
      if (i >= text.length) break;
      i++;
      if (i === text.length) {
        fields.push('');
        break;
      }
    }
    if (!quoted) yield { line: startLine, fields };
  }
  if (quoted) {
    throw new DatasetFormatError(file, '', 'a closing quote for the field opened on this line', {
      line: quoteLine,
      found: 'the end of the file',
    });
  }
}

function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'a tab' : `"${delimiter}"`;
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
