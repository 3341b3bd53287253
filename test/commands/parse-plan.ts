// What commands.test.ts sends parse-many.ts and gets back.

export interface ParseRequest {
  /** The script, relative to the repository (`scripts/reproduce.ts`). */
  file: string;
  argv: readonly string[];
}

export interface ParseResult extends ParseRequest {
  /** The exit code; null when the script did not end in time. */
  code: number | null;
  output: string;
  ms: number;
}

export const RESULT_MARK = 'parse-many results: ';

const isStrings = (value: unknown): boolean =>
  Array.isArray(value) && value.every((a: unknown) => typeof a === 'string');

export function isParseRequest(value: unknown): value is ParseRequest {
  if (typeof value !== 'object' || value === null) return false;
  return (
    'file' in value && typeof value.file === 'string' && 'argv' in value && isStrings(value.argv)
  );
}

export function isParseResult(value: unknown): value is ParseResult {
  if (!isParseRequest(value)) return false;
  return (
    'code' in value &&
    (typeof value.code === 'number' || value.code === null) &&
    'output' in value &&
    typeof value.output === 'string' &&
    'ms' in value &&
    typeof value.ms === 'number'
  );
}
