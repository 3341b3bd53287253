import type { JsonObject } from '../datasets/validate.ts';

/** One input record and where it came from. */
export interface UserRecord {
  /** 1-based line where the record starts; for Parquet, the 1-based row number. */
  line: number;
  /** JSON path of the record inside a whole-document file ("[3]"); '' for JSONL, CSV and Parquet. */
  path: string;
  value: JsonObject;
}

export type FileFormat = 'jsonl' | 'json' | 'csv' | 'tsv' | 'parquet';

export const FORMAT_LABELS: Record<FileFormat, string> = {
  jsonl: 'JSON Lines',
  json: 'JSON document',
  csv: 'CSV',
  tsv: 'TSV',
  parquet: 'Parquet',
};
