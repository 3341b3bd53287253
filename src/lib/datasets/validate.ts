/** Where in an input file a value sits: file, JSON path and (for JSONL / syntax errors) 1-based line. */
export interface Loc {
  readonly file: string;
  readonly path: string;
  readonly line: number | null;
  readonly column?: number | null;
}

export interface DatasetFormatErrorOptions {
  line?: number | null;
  column?: number | null;
  found?: string | null;
}

/** An input file does not have the shape an adapter needs. */
export class DatasetFormatError extends Error {
  readonly file: string;
  readonly path: string;
  readonly expected: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly found: string | null;

  constructor(
    file: string,
    path: string,
    expected: string,
    options: DatasetFormatErrorOptions = {},
  ) {
    const line = options.line ?? null;
    const column = options.column ?? null;
    const found = options.found ?? null;
    super(formatMessage(file, path, expected, line, column, found));
    this.name = 'DatasetFormatError';
    this.file = file;
    this.path = path;
    this.expected = expected;
    this.line = line;
    this.column = column;
    this.found = found;
  }
}

function formatMessage(
  file: string,
  path: string,
  expected: string,
  line: number | null,
  column: number | null,
  found: string | null,
): string {
  const where =
    line === null ? file : column === null ? `${file}:${line}` : `${file}:${line}:${column}`;
  const at = path === '' ? '' : ` at ${path}`;
  const got = found === null ? '' : `, found ${found}`;
  return `${where}${at}: expected ${expected}${got}`;
}

export type JsonObject = Record<string, unknown>;

export function rootLoc(file: string, line: number | null = null): Loc {
  return { file, path: '', line };
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

export function child(loc: Loc, key: string | number): Loc {
  let step: string;
  if (typeof key === 'number') step = `[${key}]`;
  else if (PLAIN_KEY.test(key)) step = loc.path === '' ? key : `.${key}`;
  else step = `[${JSON.stringify(key)}]`;
  return { ...loc, path: loc.path + step };
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string ${JSON.stringify(truncate(value, 40))}`;
  return `${typeof value} ${String(value)}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Pass the offending value (even `undefined`) to have it described in the message. */
export function fail(loc: Loc, expected: string, ...value: [] | [unknown]): never {
  const found = value.length === 1 ? describeValue(value[0]) : null;
  throw new DatasetFormatError(loc.file, loc.path, expected, {
    line: loc.line,
    column: loc.column ?? null,
    found,
  });
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectObject(value: unknown, loc: Loc): JsonObject {
  if (!isObject(value)) fail(loc, 'a JSON object', value);
  return value;
}

export function expectArray(value: unknown, loc: Loc): unknown[] {
  if (!Array.isArray(value)) fail(loc, 'an array', value);
  return value;
}

export function expectString(value: unknown, loc: Loc): string {
  if (typeof value !== 'string') fail(loc, 'a string', value);
  return value;
}

export function expectNumber(value: unknown, loc: Loc): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(loc, 'a finite number', value);
  return value;
}

export function expectInteger(value: unknown, loc: Loc): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(loc, 'an integer', value);
  return value;
}

export function expectStringArray(value: unknown, loc: Loc): string[] {
  return expectArray(value, loc).map((item, i) => expectString(item, child(loc, i)));
}

/** Field accessors: `obj[key]` checked, with the path extended by `key`. */
export function getObject(obj: JsonObject, key: string, loc: Loc): JsonObject {
  return expectObject(obj[key], child(loc, key));
}

export function getArray(obj: JsonObject, key: string, loc: Loc): unknown[] {
  return expectArray(obj[key], child(loc, key));
}

export function getString(obj: JsonObject, key: string, loc: Loc): string {
  return expectString(obj[key], child(loc, key));
}

export function getNumber(obj: JsonObject, key: string, loc: Loc): number {
  return expectNumber(obj[key], child(loc, key));
}

export function getInteger(obj: JsonObject, key: string, loc: Loc): number {
  return expectInteger(obj[key], child(loc, key));
}

export function getStringArray(obj: JsonObject, key: string, loc: Loc): string[] {
  return expectStringArray(obj[key], child(loc, key));
}

/** Missing and null both read as null; anything else must be a string. */
export function getOptionalString(obj: JsonObject, key: string, loc: Loc): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  return expectString(value, child(loc, key));
}

export function getOptionalNumber(obj: JsonObject, key: string, loc: Loc): number | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  return expectNumber(value, child(loc, key));
}

export function getOptionalInteger(obj: JsonObject, key: string, loc: Loc): number | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  return expectInteger(value, child(loc, key));
}

export function getOptionalObject(obj: JsonObject, key: string, loc: Loc): JsonObject | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  return expectObject(value, child(loc, key));
}
