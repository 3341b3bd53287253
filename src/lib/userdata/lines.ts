import { DatasetFormatError } from '../datasets/validate.ts';
import type { ByteSource } from './byte-source.ts';
import { concatBytes } from '../common/bytes.ts';
import { hexByte, invalidUtf8Offset } from './utf8.ts';
import { formatBytes } from '../common/format-bytes.ts';

export interface TextLine {
  /** 1-based. */
  line: number;
  text: string;
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** Called after each chunk with the bytes read so far. */
  onBytes?: (read: number) => void;
  maxLineBytes?: number;
}

export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits on LF at the byte level (UTF-8 never has 0x0A inside a character), then decodes each line
 * with a fatal decoder, so a bad byte is reported with its line and only one line is ever a string.
 */
export async function* readLines(
  source: ByteSource,
  options: ReadOptions = {},
): AsyncGenerator<TextLine> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  let line = 0;
  let read = 0;
  const tooLong = () =>
    new DatasetFormatError(source.name, '', `lines under ${formatBytes(maxLineBytes)}`, {
      line: line + 1,
      found: 'a longer line (is this one huge JSON document? use JSON Lines, one record per line)',
    });

  for await (const chunk of source.chunks()) {
    options.signal?.throwIfAborted();
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      if (pendingLength + piece.length > maxLineBytes) throw tooLong();
      const bytes =
        pending.length === 0
          ? piece
          : concatBytes([...pending, piece], pendingLength + piece.length);
      pending = [];
      pendingLength = 0;
      line++;
      yield { line, text: decodeLine(decoder, bytes, line, source.name) };
      start = end + 1;
    }
    if (start < chunk.length) {
      pendingLength += chunk.length - start;
      if (pendingLength > maxLineBytes) throw tooLong();
      pending.push(chunk.slice(start));
    }
    read += chunk.length;
    options.onBytes?.(read);
  }
  if (pendingLength > 0) {
    line++;
    yield {
      line,
      text: decodeLine(decoder, concatBytes(pending, pendingLength), line, source.name),
    };
  }
}

function decodeLine(decoder: TextDecoder, raw: Uint8Array, line: number, file: string): string {
  let bytes = raw.length > 0 && raw[raw.length - 1] === CR ? raw.subarray(0, -1) : raw;
  if (line === 1) bytes = withoutUtf8Bom(bytes, file);
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    throw new DatasetFormatError(file, '', 'text', {
      line,
      column: columnOf(bytes, nul),
      found: 'a NUL byte (is this a binary or UTF-16 file?)',
    });
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const offset = Math.max(0, invalidUtf8Offset(bytes));
    throw new DatasetFormatError(file, '', 'UTF-8 text', {
      line,
      column: columnOf(bytes, offset),
      found: `byte ${hexByte(bytes[offset] ?? 0)}, which is not valid UTF-8 (Latin-1 or Windows-1252? save the file as UTF-8)`,
    });
  }
  if (line > 1 && text.startsWith('\uFEFF')) {
    throw new DatasetFormatError(file, '', 'a byte-order mark only at the start of the file', {
      line,
      found: 'one at the start of this line (were two files joined?)',
    });
  }
  return text;
}

function withoutUtf8Bom(bytes: Uint8Array, file: string): Uint8Array {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3);
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) {
    throw new DatasetFormatError(file, '', 'UTF-8 text', {
      line: 1,
      found: 'a UTF-16 byte-order mark (save the file as UTF-8)',
    });
  }
  return bytes;
}

/** 1-based character column of a byte offset (the prefix is valid UTF-8 up to there). */
function columnOf(bytes: Uint8Array, offset: number): number {
  return new TextDecoder('utf-8').decode(bytes.subarray(0, offset)).length + 1;
}
