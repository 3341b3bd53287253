// RFC 4180 records assembled one physical line at a time: the one CSV parser, behind both the
// released-results files (whole text) and readers' CSV/TSV files (streamed lines). Quoted fields
// may span lines and `""` is a literal quote; a quote inside an unquoted field, text after a
// closing quote and a quote never closed are errors with their line, not guesses.

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

/** Where and what; each caller wraps it in its own error, which names the file. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number | null,
    readonly expected: string,
    readonly found: string,
  ) {
    super(
      `line ${line}${column === null ? '' : `, column ${column}`}: expected ${expected}, found ${found}`,
    );
    this.name = 'CsvSyntaxError';
  }

  /** The message without its line, for errors that print the line themselves. */
  get detail(): string {
    return `${this.column === null ? '' : `column ${this.column}: `}expected ${this.expected}, found ${this.found}`;
  }
}

export class CsvRecordReader {
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  private startLine = 0;
  private quoteLine = 0;

  constructor(private readonly delimiter = ',') {}

  /** One line, without its line end; returns the record it completes. Blank lines between records are skipped. */
  push(line: number, text: string): CsvRecord | null {
    const delimiter = this.delimiter;
    if (this.quoted) {
      this.field += '\n';
    } else {
      if (text.trim() === '') return null;
      this.fields = [];
      this.startLine = line;
    }
    let i = 0;
    for (;;) {
      if (this.quoted) {
        const close = text.indexOf('"', i);
        if (close < 0) {
          this.field += text.slice(i);
          break;
        }
        this.field += text.slice(i, close);
        if (text[close + 1] === '"') {
          this.field += '"';
          i = close + 2;
          continue;
        }
        this.quoted = false;
        i = close + 1;
        if (i < text.length && text[i] !== delimiter) {
          throw new CsvSyntaxError(
            line,
            i + 1,
            `${delimiterName(delimiter)} or a line end after a closing quote`,
            JSON.stringify(text[i]),
          );
        }
        this.fields.push(this.field);
        this.field = '';
      } else if (text[i] === '"') {
        this.quoted = true;
        this.quoteLine = line;
        i++;
        continue;
      } else {
        const next = text.indexOf(delimiter, i);
        const raw = text.slice(i, next < 0 ? text.length : next);
        const stray = raw.indexOf('"');
        if (stray >= 0) {
          throw new CsvSyntaxError(
            line,
            i + stray + 1,
            'quotes only around a whole field',
            'a quote inside an unquoted field (quote the field and double the inner quote)',
          );
        }
        this.fields.push(raw);
        i += raw.length;
      }
      if (i >= text.length) break;
      i++;
      if (i === text.length) {
        this.fields.push('');
        break;
      }
    }
    return this.quoted ? null : { line: this.startLine, fields: this.fields };
  }

  /** At the end of the input: a quoted field still open is an error. */
  end(): void {
    if (this.quoted) {
      throw new CsvSyntaxError(
        this.quoteLine,
        null,
        'a closing quote for the field opened on this line',
        'the end of the file',
      );
    }
  }
}

function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'a tab' : `"${delimiter}"`;
}

/** Every record of a whole text: a leading byte-order mark is dropped, CRLF reads as LF. */
export function parseCsvRecords(text: string, delimiter = ','): CsvRecord[] {
  const reader = new CsvRecordReader(delimiter);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const records: CsvRecord[] = [];
  lines.forEach((raw, i) => {
    const record = reader.push(i + 1, raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (record) records.push(record);
  });
  reader.end();
  return records;
}
