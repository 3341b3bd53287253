import { DatasetFormatError, isObject } from '../datasets/validate.ts';
import type { FileFormat } from './record.ts';

const BY_EXTENSION: Record<string, FileFormat> = {
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  json: 'json',
  csv: 'csv',
  tsv: 'tsv',
  parquet: 'parquet',
};

const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31];

export function extensionOf(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/**
 * Format from the first bytes and the name. Parquet is recognised by its magic number; a `.json`
 * file whose first line is a complete object followed by more lines is JSON Lines.
 */
export function detectFormat(name: string, head: Uint8Array): FileFormat {
  if (PARQUET_MAGIC.every((b, i) => head[i] === b)) return 'parquet';
  const extension = extensionOf(name);
  const known = BY_EXTENSION[extension];
  if (known && known !== 'json') return known;
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '');
  const first = text.trimStart()[0];
  if (known === 'json' || first === '{' || first === '[') {
    return looksLikeJsonLines(text) ? 'jsonl' : 'json';
  }
  throw new DatasetFormatError(name, '', 'a .json, .jsonl, .ndjson, .csv, .tsv or .parquet file', {
    found: extension === '' ? 'a name without an extension' : `".${extension}"`,
  });
}

function looksLikeJsonLines(head: string): boolean {
  const lines = head.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    return isObject(JSON.parse(lines[0])) && lines[1].trimStart().startsWith('{');
  } catch {
    return false;
  }
}
