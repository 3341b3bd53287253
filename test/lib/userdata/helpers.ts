import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bytesSource,
  iterableSource,
  type ByteSource,
} from '../../../src/lib/userdata/byte-source.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BAD_DIR = path.join(repoRoot, 'test/fixtures/bad');
export const GOOD_DIR = path.join(repoRoot, 'test/fixtures/userdata');

export function fixture(dir: string, name: string): ByteSource {
  return bytesSource(name, new Uint8Array(readFileSync(path.join(dir, name))));
}

/** The same bytes cut into chunks of `size`, to exercise boundaries inside lines and characters. */
export function chunked(name: string, data: Uint8Array | string, size: number): ByteSource {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return iterableSource(name, bytes.length, async function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
  });
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export async function errorOf(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (err) {
    if (err instanceof Error) return err;
    throw err;
  }
  throw new Error('expected an error');
}
