import { DatasetFormatError, describeValue, isObject, type JsonObject } from './validate.ts';
import { errorMessage } from '../common/error-message.ts';

export interface JsonlRecord {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export interface JsonlObjectRecord {
  line: number;
  value: JsonObject;
}

const BOM = '\uFEFF';

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** Parses JSON Lines; blank lines are skipped, a leading BOM is accepted. */
export function parseJsonl(text: string, file: string): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  const lines = stripBom(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (line.trim() === '') continue;
    records.push({ line: i + 1, value: parseLine(line, i + 1, file) });
  }
  return records;
}

function parseLine(line: string, lineNumber: number, file: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const message = errorMessage(error);
    const offset = errorOffset(line, message);
    throw new DatasetFormatError(file, '', 'valid JSON', {
      line: lineNumber,
      column: offset + 1,
      found: `a syntax error (${message})`,
    });
  }
}

/** Like `parseJsonl`, but every line must hold a JSON object. */
export function parseJsonlObjects(text: string, file: string): JsonlObjectRecord[] {
  return jsonlObjects(parseJsonl(text, file), file);
}

export function jsonlObjects(records: readonly JsonlRecord[], file: string): JsonlObjectRecord[] {
  return records.map(({ line, value }) => {
    if (!isObject(value)) {
      throw new DatasetFormatError(file, '', 'a JSON object', {
        line,
        found: describeValue(value),
      });
    }
    return { line, value };
  });
}

/** JSONL adapters accept raw text or records already parsed by `parseJsonl`. */
export function toJsonlObjects(
  input: string | readonly JsonlRecord[],
  file: string,
): JsonlObjectRecord[] {
  return jsonlObjects(typeof input === 'string' ? parseJsonl(input, file) : input, file);
}

/** Parses one JSON document; a syntax error names the file, line and column. */
export function parseJsonDocument(text: string, file: string): unknown {
  const body = stripBom(text);
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = errorMessage(error);
    const { line, column } = lineColumnOf(body, errorOffset(body, message));
    throw new DatasetFormatError(file, '', 'valid JSON', {
      line,
      column,
      found: `a syntax error (${message})`,
    });
  }
}

/** Error offset as reported by the engine (V8 / Firefox wording), else found by scanning. */
function errorOffset(text: string, message: string): number {
  const position = /\bposition (\d+)/.exec(message);
  if (position) return Math.min(Number(position[1]), text.length);
  const lineColumn = /\bline (\d+) column (\d+)/.exec(message);
  if (lineColumn) return offsetOf(text, Number(lineColumn[1]), Number(lineColumn[2]));
  const scanned = jsonSyntaxErrorOffset(text);
  return scanned < 0 ? 0 : scanned;
}

export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** Offset of the first JSON syntax error in `text`, or -1 when it is valid JSON. */
export function jsonSyntaxErrorOffset(text: string): number {
  const scanner = new JsonScanner(text);
  return scanner.document() ? -1 : scanner.pos;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** Recognises JSON without building values; on failure `pos` is the offending offset. */
class JsonScanner {
  pos = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  document(): boolean {
    this.skipWhitespace();
    if (!this.value()) return false;
    this.skipWhitespace();
    return this.pos === this.text.length;
  }

  private skipWhitespace(): void {
    while (this.pos < this.text.length && WHITESPACE.has(this.text.charCodeAt(this.pos))) {
      this.pos++;
    }
  }

  private value(): boolean {
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't') return this.literal('true');
    if (c === 'f') return this.literal('false');
    if (c === 'n') return this.literal('null');
    return this.number();
  }

  private literal(word: string): boolean {
    for (let i = 0; i < word.length; i++, this.pos++) {
      if (this.text[this.pos] !== word[i]) return false;
    }
    return true;
  }

  private number(): boolean {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match || match[0] === '' || match[0] === '-') return false;
    this.pos += match[0].length;
    return true;
  }

  private string(): boolean {
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '"') {
        this.pos++;
        return true;
      }
      if (c.charCodeAt(0) < 0x20) return false;
      if (c === '\\' && !this.escape()) return false;
      if (c !== '\\') this.pos++;
    }
    return false;
  }

  private escape(): boolean {
    const next = this.text[this.pos + 1];
    if (next !== undefined && SIMPLE_ESCAPES.has(next)) {
      this.pos += 2;
      return true;
    }
    if (next !== 'u') return false;
    HEX4.lastIndex = this.pos + 2;
    if (!HEX4.test(this.text)) return false;
    this.pos += 6;
    return true;
  }

  private array(): boolean {
    return this.sequence(']', () => this.value());
  }

  private object(): boolean {
    return this.sequence('}', () => this.member());
  }

  private member(): boolean {
    if (this.text[this.pos] !== '"' || !this.string()) return false;
    this.skipWhitespace();
    if (this.text[this.pos] !== ':') return false;
    this.pos++;
    this.skipWhitespace();
    return this.value();
  }

  private sequence(close: string, item: () => boolean): boolean {
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === close) {
      this.pos++;
      return true;
    }
    for (;;) {
      if (!item()) return false;
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === close) {
        this.pos++;
        return true;
      }
      if (c !== ',') return false;
      this.pos++;
      this.skipWhitespace();
    }
  }
}
