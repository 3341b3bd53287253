import { DatasetFormatError } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import type { UserRecord } from './record.ts';

/** Decodes Parquet into records; plugged in once a reader (e.g. hyparquet) is a dependency. */
export interface ParquetReader {
  readonly available: boolean;
  records(source: ByteSource): AsyncIterable<UserRecord>;
}

export const PARQUET_NOT_INSTALLED: ParquetReader = {
  available: false,
  records(source: ByteSource): AsyncIterable<UserRecord> {
    throw new DatasetFormatError(source.name, '', 'a JSON, JSON Lines or CSV file', {
      found:
        'a Parquet file, and Parquet support not installed in this build (convert it to JSON Lines or CSV)',
    });
  },
};
