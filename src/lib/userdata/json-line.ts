import { jsonSyntaxErrorOffset } from '../datasets/jsonl.ts';
import {
  DatasetFormatError,
  describeValue,
  isObject,
  type JsonObject,
} from '../datasets/validate.ts';
import type { TextLine } from './lines.ts';
import { errorMessage } from '../common/error-message.ts';

/** One JSONL line as an object; a syntax error names the file, line and column. */
export function parseJsonLine({ line, text }: TextLine, file: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const offset = Math.max(0, jsonSyntaxErrorOffset(text));
    const message = errorMessage(error);
    throw new DatasetFormatError(file, '', 'valid JSON', {
      line,
      column: offset + 1,
      found: `a syntax error (${message})`,
    });
  }
  if (!isObject(value)) {
    throw new DatasetFormatError(file, '', 'a JSON object (one record per line)', {
      line,
      found: describeValue(value),
    });
  }
  return value;
}
