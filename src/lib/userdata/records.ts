import { DatasetFormatError } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import { csvRecords } from './csv.ts';
import { jsonDocumentRecords } from './json-document.ts';
import { parseJsonLine } from './json-line.ts';
import { readLines, type ReadOptions } from './lines.ts';
import { DEFAULT_PARQUET_READER, type ParquetReader } from './parquet.ts';
import type { FileFormat, UserRecord } from './record.ts';
import { repeatedKeys, type KeyRepeat } from './repeated-keys.ts';

export interface RecordOptions extends ReadOptions {
  /** Parquet decoder; hyparquet when not given. */
  parquet?: ParquetReader;
  /** JSON only: asks for the keys an object repeats, which JSON.parse drops silently. */
  onRepeatedKeys?: (repeats: KeyRepeat[]) => void;
}

async function* jsonlRecords(
  source: ByteSource,
  options: RecordOptions,
): AsyncGenerator<UserRecord> {
  for await (const line of readLines(source, options)) {
    if (line.text.trim() === '') continue;
    const value = parseJsonLine(line, source.name);
    if (options.onRepeatedKeys) {
      const repeats = repeatedKeys(line.text, line.line);
      if (repeats.length > 0) options.onRepeatedKeys(repeats);
    }
    yield { line: line.line, path: '', value };
  }
}

function byFormat(
  source: ByteSource,
  format: FileFormat,
  options: RecordOptions,
): AsyncIterable<UserRecord> {
  switch (format) {
    case 'jsonl':
      return jsonlRecords(source, options);
    case 'json':
      return jsonDocumentRecords(source, options, options.onRepeatedKeys);
    case 'csv':
      return csvRecords(readLines(source, options), source.name, ',');
    case 'tsv':
      return csvRecords(readLines(source, options), source.name, '\t');
    case 'parquet':
      return (options.parquet ?? DEFAULT_PARQUET_READER).records(source, options);
  }
}

/** Every record of the file, streamed; a file without any record is an error, not an empty table. */
export async function* readRecords(
  source: ByteSource,
  format: FileFormat,
  options: RecordOptions = {},
): AsyncGenerator<UserRecord> {
  let bytes = 0;
  let records = 0;
  const counted: RecordOptions = {
    ...options,
    onBytes: (read) => {
      bytes = read;
      options.onBytes?.(read);
    },
  };
  for await (const record of byFormat(source, format, counted)) {
    records++;
    yield record;
  }
  if (records === 0) {
    throw new DatasetFormatError(source.name, '', 'at least one record', {
      found: bytes === 0 ? 'an empty file' : 'only blank lines',
    });
  }
}
