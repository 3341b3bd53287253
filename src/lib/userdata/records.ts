import { DatasetFormatError } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import { csvRecords } from './csv.ts';
import { jsonDocumentRecords } from './json-document.ts';
import { parseJsonLine } from './json-line.ts';
import { readLines, type ReadOptions } from './lines.ts';
import { DEFAULT_PARQUET_READER, type ParquetReader } from './parquet.ts';
import type { FileFormat, UserRecord } from './record.ts';

export interface RecordOptions extends ReadOptions {
  /** Parquet decoder; hyparquet when not given. */
  parquet?: ParquetReader;
}

async function* jsonlRecords(source: ByteSource, options: ReadOptions): AsyncGenerator<UserRecord> {
  for await (const line of readLines(source, options)) {
    if (line.text.trim() === '') continue;
    yield { line: line.line, path: '', value: parseJsonLine(line, source.name) };
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
      return jsonDocumentRecords(source, options);
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
