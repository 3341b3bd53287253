import type { ByteSource } from './byte-source.ts';
import type { ReadOptions } from './lines.ts';
import type { UserRecord } from './record.ts';

/**
 * Decodes Parquet into records. The default is hyparquet (`parquet-hyparquet.ts`), loaded on first
 * use; tests or other builds pass their own through `RecordOptions.parquet`.
 */
export interface ParquetReader {
  readonly available: boolean;
  /** `options.onBytes` reports the bytes read, `options.signal` cancels. */
  records(source: ByteSource, options?: ReadOptions): AsyncIterable<UserRecord>;
}
