import { parseJsonDocument } from '../datasets/jsonl.ts';
import { DatasetFormatError, describeValue, isObject } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import { formatBytes } from '../common/format-bytes.ts';
import { readLines, type ReadOptions } from './lines.ts';
import type { UserRecord } from './record.ts';
import { repeatedKeys, type KeyRepeat } from './repeated-keys.ts';

/** A whole JSON document must be parsed in one piece, so it is capped; JSON Lines is not. */
export const MAX_JSON_DOCUMENT_BYTES = 64 * 1024 * 1024;

export function documentTooLarge(file: string, bytes: number): DatasetFormatError {
  return new DatasetFormatError(
    file,
    '',
    `a JSON document under ${formatBytes(MAX_JSON_DOCUMENT_BYTES)} (save larger data as JSON Lines, .jsonl, which streams)`,
    { found: formatBytes(bytes) },
  );
}

/** Records of a document that is an array of objects; each carries the line its element starts on. */
export async function* jsonDocumentRecords(
  source: ByteSource,
  options: ReadOptions = {},
  onRepeatedKeys?: (repeats: KeyRepeat[]) => void,
): AsyncGenerator<UserRecord> {
  const file = source.name;
  if (source.size !== null && source.size > MAX_JSON_DOCUMENT_BYTES) {
    throw documentTooLarge(file, source.size);
  }
  const lines: string[] = [];
  let length = 0;
  for await (const { text } of readLines(source, options)) {
    length += text.length + 1;
    if (length > MAX_JSON_DOCUMENT_BYTES) throw documentTooLarge(file, length);
    lines.push(text);
  }
  const text = lines.join('\n');
  if (text.trim() === '') return;
  const doc = parseJsonDocument(text, file);
  if (!Array.isArray(doc)) {
    throw new DatasetFormatError(
      file,
      '',
      'an array of JSON objects (one per record) or JSON Lines',
      {
        line: 1,
        found: describeValue(doc),
      },
    );
  }
  if (doc.length === 0) {
    throw new DatasetFormatError(file, '', 'at least one record', {
      line: 1,
      found: 'an empty array',
    });
  }
  const starts = arrayElementLines(text);
  if (onRepeatedKeys) {
    const repeats = repeatedKeys(text, 1, true);
    if (repeats.length > 0) onRepeatedKeys(repeats);
  }
  for (let i = 0; i < doc.length; i++) {
    const value: unknown = doc[i];
    const path = `[${i}]`;
    if (!isObject(value)) {
      throw new DatasetFormatError(file, path, 'a JSON object', {
        line: starts[i],
        found: describeValue(value),
      });
    }
    yield { line: starts[i], path, value };
  }
}

/** 1-based start line of each element of a (valid) JSON array document. */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\uFEFF') continue;
    if (depth === 1 && expectValue && c !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return lines;
}
