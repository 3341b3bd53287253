// The CLI's vector cache: one append-only file per model scope under the user cache
// (~/.cache/memlens/vectors, or $MEMLENS_CACHE/vectors). A record is a JSON line of the key and
// the vector's float32 bytes in base64; a torn last line (a killed run) is skipped when read.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VectorStore } from '../../src/lib/embed/vector-cache.ts';
import { cacheRoot } from './pypi-model.ts';

interface VectorRecord {
  key: string;
  f32: string;
}

function isRecord(value: unknown): value is VectorRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    'key' in value &&
    typeof value.key === 'string' &&
    'f32' in value &&
    typeof value.f32 === 'string'
  );
}

function decode(line: string): [string, Float32Array] | null {
  try {
    const value: unknown = JSON.parse(line);
    if (!isRecord(value)) return null;
    const bytes = Buffer.from(value.f32, 'base64');
    if (bytes.length % 4 !== 0) return null;
    const vector = new Float32Array(bytes.length / 4);
    new Uint8Array(vector.buffer).set(bytes);
    return [value.key, vector];
  } catch {
    return null;
  }
}

const encode = (key: string, vector: Float32Array): string =>
  JSON.stringify({
    key,
    f32: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64'),
  });

export const vectorCacheDir = (): string => path.join(cacheRoot(), 'vectors');

export class VectorFileStore implements VectorStore {
  private constructor(
    private readonly file: string,
    private readonly rows: Map<string, Float32Array>,
    /** The file ends in a torn record: the next append starts on a line of its own. */
    private torn: boolean,
  ) {}

  /** The store in `file`; a missing file is an empty store. */
  static async open(file: string): Promise<VectorFileStore> {
    const rows = new Map<string, Float32Array>();
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const entry = line && decode(line);
      if (entry) rows.set(entry[0], entry[1]);
    }
    return new VectorFileStore(file, rows, text.length > 0 && !text.endsWith('\n'));
  }

  get size(): number {
    return this.rows.size;
  }

  async getMany(keys: readonly string[]): Promise<(Float32Array | undefined)[]> {
    return keys.map((key) => this.rows.get(key));
  }

  async putMany(entries: readonly { key: string; vector: Float32Array }[]): Promise<void> {
    const fresh = entries.filter((e) => !this.rows.has(e.key));
    if (fresh.length === 0) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    const lines = fresh.map((e) => encode(e.key, e.vector)).join('\n');
    await appendFile(this.file, `${this.torn ? '\n' : ''}${lines}\n`);
    this.torn = false;
    for (const e of fresh) this.rows.set(e.key, e.vector);
  }
}
