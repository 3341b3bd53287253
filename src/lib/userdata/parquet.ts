import { DatasetFormatError } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import type { ReadOptions } from './lines.ts';
import type { UserRecord } from './record.ts';
import type { ParquetReader } from './parquet-reader.ts';

export type { ParquetReader };

/** The hyparquet reader, imported only when a Parquet file is read (a separate chunk). */
export const DEFAULT_PARQUET_READER: ParquetReader = {
  available: true,
  async *records(source: ByteSource, options: ReadOptions = {}): AsyncGenerator<UserRecord> {
    const { HYPARQUET_READER } = await import('./parquet-hyparquet.ts');
    yield* HYPARQUET_READER.records(source, options);
  },
};

/** For a build without a Parquet decoder: refuses Parquet files by name. */
export const PARQUET_NOT_INSTALLED: ParquetReader = {
  available: false,
  records(source: ByteSource): AsyncIterable<UserRecord> {
    throw new DatasetFormatError(source.name, '', 'a JSON, JSON Lines or CSV file', {
      found:
        'a Parquet file, and Parquet support not installed in this build (convert it to JSON Lines or CSV)',
    });
  },
};
