import { parquetMetadata, parquetReadObjects, type FileMetaData } from 'hyparquet';
import { DatasetFormatError, type JsonObject } from '../datasets/validate.ts';
import { errorMessage } from '../common/error-message.ts';
import type { ByteSource } from './byte-source.ts';
import { formatBytes } from '../common/format-bytes.ts';
import type { ReadOptions } from './lines.ts';
import type { ParquetReader } from './parquet-reader.ts';
import type { UserRecord } from './record.ts';

/**
 * Parquet keeps its metadata at the end of the file and needs random access, so the whole file is
 * read into memory (a ByteSource only streams from the start). This caps that buffer.
 */
export const MAX_PARQUET_BYTES = 512 * 1024 * 1024;

/** Codecs hyparquet decodes without extra (optional) decompressor packages. */
const CODECS = new Set(['UNCOMPRESSED', 'SNAPPY']);

/** "PAR1" magic + 4-byte metadata length + "PAR1". */
const MIN_PARQUET_BYTES = 12;
const MAGIC = 0x31524150;

export interface HyparquetOptions {
  maxBytes?: number;
}

export function parquetTooLarge(file: string, bytes: number, maxBytes: number): DatasetFormatError {
  return new DatasetFormatError(
    file,
    '',
    `a Parquet file under ${formatBytes(maxBytes)} (Parquet is read whole, in memory; split it, or save it as JSON Lines, .jsonl, which streams)`,
    { found: formatBytes(bytes) },
  );
}

/** The whole file in one buffer; refuses, by size, before or while reading, past `maxBytes`. */
async function readWhole(
  source: ByteSource,
  options: ReadOptions,
  maxBytes: number,
): Promise<ArrayBuffer> {
  if (source.size !== null && source.size > maxBytes) {
    throw parquetTooLarge(source.name, source.size, maxBytes);
  }
  // Known size: one allocation, filled in place; otherwise (or if the size was wrong) parts.
  let whole: Uint8Array<ArrayBuffer> | null =
    source.size !== null ? new Uint8Array(source.size) : null;
  let parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of source.chunks()) {
    options.signal?.throwIfAborted();
    if (length + chunk.length > maxBytes) {
      throw parquetTooLarge(source.name, length + chunk.length, maxBytes);
    }
    if (whole !== null && length + chunk.length <= whole.length) {
      whole.set(chunk, length);
    } else {
      if (whole !== null) {
        parts = [whole.subarray(0, length)];
        whole = null;
      }
      parts.push(chunk.slice());
    }
    length += chunk.length;
    options.onBytes?.(length);
  }
  if (whole !== null) {
    return length === whole.length ? whole.buffer : whole.buffer.slice(0, length);
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out.buffer;
}

function corrupt(file: string, expected: string, found: string): DatasetFormatError {
  return new DatasetFormatError(file, '', expected, { found });
}

/** Checks the footer itself (stable messages), then lets hyparquet decode the metadata. */
function readMetadata(file: string, buffer: ArrayBuffer): FileMetaData {
  const view = new DataView(buffer);
  if (buffer.byteLength < MIN_PARQUET_BYTES) {
    throw corrupt(
      file,
      'a Parquet file (at least 12 bytes: "PAR1", data, metadata, "PAR1")',
      `only ${buffer.byteLength} bytes`,
    );
  }
  if (view.getUint32(buffer.byteLength - 4, true) !== MAGIC) {
    throw corrupt(
      file,
      'a Parquet file ending in its footer and "PAR1"',
      'other bytes at the end (the file is truncated or not Parquet)',
    );
  }
  const metadataLength = view.getUint32(buffer.byteLength - 8, true);
  const room = buffer.byteLength - MIN_PARQUET_BYTES;
  if (metadataLength > room) {
    throw corrupt(
      file,
      `Parquet metadata of at most ${room} bytes before the footer`,
      `a footer giving ${metadataLength} bytes (the file is corrupt or truncated)`,
    );
  }
  try {
    return parquetMetadata(buffer);
  } catch (err) {
    throw corrupt(file, 'readable Parquet metadata', `corrupt metadata (${errorMessage(err)})`);
  }
}

function unsupportedCodec(file: string, metadata: FileMetaData): DatasetFormatError | null {
  for (const group of metadata.row_groups) {
    for (const column of group.columns) {
      const meta = column.meta_data;
      if (meta && !CODECS.has(meta.codec)) {
        return corrupt(
          file,
          'a Parquet file compressed with SNAPPY or not compressed (re-save it with compression="snappy")',
          `${meta.codec} compression in column "${meta.path_in_schema.join('.')}"`,
        );
      }
    }
  }
  return null;
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

/**
 * A decoded Parquet value as JSON: integers beyond 2^53 and non-finite numbers become strings,
 * dates ISO strings, binary base64, lists arrays and structs/maps objects.
 */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint': {
      const n = Number(value);
      return Number.isSafeInteger(n) ? n : value.toString();
    }
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return base64(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<unknown>, toJsonValue);
  }
  if (value instanceof Map) {
    const out: JsonObject = {};
    for (const [k, v] of value as Map<unknown, unknown>) out[String(k)] = toJsonValue(v);
    return out;
  }
  return toJsonObject(value as Record<string, unknown>);
}

function toJsonObject(row: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(row)) out[key] = toJsonValue(v);
  return out;
}

/**
 * Records of a Parquet file, one row group at a time (only one group's rows are decoded at once).
 * `line` is the 1-based row number; `path` is '' as for JSON Lines and CSV, so a message reads
 * `file.parquet:<row> at <field>: …`.
 */
export function hyparquetReader(config: HyparquetOptions = {}): ParquetReader {
  const maxBytes = config.maxBytes ?? MAX_PARQUET_BYTES;
  return {
    available: true,
    async *records(source: ByteSource, options: ReadOptions = {}): AsyncGenerator<UserRecord> {
      const file = source.name;
      const buffer = await readWhole(source, options, maxBytes);
      const metadata = readMetadata(file, buffer);
      const codec = unsupportedCodec(file, metadata);
      if (codec) throw codec;
      if (Number(metadata.num_rows) === 0) {
        throw corrupt(file, 'at least one record', 'a Parquet file with no rows');
      }
      let rowStart = 0;
      const groups = metadata.row_groups.length;
      for (let g = 0; g < groups; g++) {
        options.signal?.throwIfAborted();
        const rowEnd = rowStart + Number(metadata.row_groups[g].num_rows);
        if (rowEnd === rowStart) continue;
        let rows: Record<string, unknown>[];
        try {
          rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd });
        } catch (err) {
          throw corrupt(
            file,
            'readable Parquet data',
            `corrupt data in row group ${g + 1} of ${groups}, rows ${rowStart + 1}–${rowEnd} (${errorMessage(err)})`,
          );
        }
        for (let i = 0; i < rows.length; i++) {
          yield { line: rowStart + i + 1, path: '', value: toJsonObject(rows[i]) };
        }
        rowStart = rowEnd;
      }
    },
  };
}

export const HYPARQUET_READER: ParquetReader = hyparquetReader();
