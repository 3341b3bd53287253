import { concatBytes } from '../common/bytes.ts';
/** Bytes of one input file, readable more than once (inspection, then loading). */
export interface ByteSource {
  readonly name: string;
  /** Total bytes when known: drives progress and size limits. */
  readonly size: number | null;
  /** The bytes as one Blob when they are one already (a picked file): kept without a copy. */
  readonly blob?: Blob;
  chunks(): AsyncIterable<Uint8Array>;
}

const CHUNK = 1 << 16;

export function bytesSource(name: string, data: Uint8Array | string): ByteSource {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return {
    name,
    size: bytes.length,
    async *chunks() {
      for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
    },
  };
}

export function iterableSource(
  name: string,
  size: number | null,
  chunks: () => AsyncIterable<Uint8Array>,
): ByteSource {
  return { name, size, chunks };
}

/** A `File` or any `Blob`, read through its stream so large files are never one string. */
export function blobSource(name: string, blob: Blob): ByteSource {
  return { name, size: blob.size, blob, chunks: () => readStream(blob.stream()) };
}

export async function* readStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The first `limit` bytes (fewer for a shorter file). */
export async function readHead(source: ByteSource, limit: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of source.chunks()) {
    parts.push(chunk.subarray(0, limit - length));
    length += Math.min(chunk.length, limit - length);
    if (length >= limit) break;
  }
  return concatBytes(parts, length);
}
