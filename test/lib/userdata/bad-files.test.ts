import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../src/lib/db/catalog.ts';
import { iterableSource } from '../../../src/lib/userdata/byte-source.ts';
import { BAD_DIR, GOOD_DIR, errorOf, fixture } from './helpers.ts';
import { catalogWithInmind, loadAsPage, tableCounts } from './duckdb.ts';

const expected = JSON.parse(readFileSync(path.join(BAD_DIR, 'expected.json'), 'utf8')) as Record<
  string,
  string
>;

let catalog: Catalog;
let before: Record<string, number>;

beforeAll(async () => {
  catalog = await catalogWithInmind();
  await loadAsPage(catalog, fixture(GOOD_DIR, 'records.jsonl'));
  before = await tableCounts(catalog);
  expect(before.user_records).toBe(5);
});
afterAll(async () => {
  await catalog.engine.close();
});

/** Each bad file is loaded over the existing `user_records`, which must survive. */
async function rejects(source: Parameters<typeof loadAsPage>[1], message: string): Promise<void> {
  const err = await errorOf(() => loadAsPage(catalog, source, { table: 'user_records' }));
  expect(err.message).toContain(message);
  expect(err.message.startsWith(source.name)).toBe(true);
  expect(await tableCounts(catalog)).toEqual(before);
}

describe('bad files through the page’s loading code', () => {
  it('has at least 30 fixtures, each with its expected message', () => {
    const files = readdirSync(BAD_DIR).filter((f) => f !== 'expected.json');
    expect(files.sort()).toEqual(Object.keys(expected).sort());
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const [file, message] of Object.entries(expected))
      expect(message.startsWith(file)).toBe(true);
  });

  it.each(Object.entries(expected))('%s', async (file, message) => {
    await rejects(fixture(BAD_DIR, file), message);
  });
});

const MB = 1024 * 1024;

/** ~200 MB of records generated on the fly (never one buffer or string), then `tail`. */
function generated(
  name: string,
  totalBytes: number,
  shape: { head: string; sep: string; tail: string },
) {
  const encoder = new TextEncoder();
  const line = (i: number) =>
    `${JSON.stringify({ question: `Question ${i}?`, memory: `${'memory text '.repeat(80)}${i}`, answer: 'a' })}${shape.sep}\n`;
  const lineBytes = encoder.encode(line(0)).length;
  const lines = Math.floor(totalBytes / lineBytes);
  const perChunk = Math.max(1, Math.floor(MB / lineBytes));
  const size = encoder.encode(shape.head + shape.tail).length + lines * lineBytes;
  let chunksRead = 0;
  const source = iterableSource(name, size, async function* () {
    yield encoder.encode(shape.head);
    for (let i = 0; i < lines; i += perChunk) {
      let text = '';
      for (let k = i; k < Math.min(lines, i + perChunk); k++) text += line(k % 10);
      chunksRead++;
      yield encoder.encode(text);
    }
    yield encoder.encode(shape.tail);
  });
  return { source, lines, size, chunksRead: () => chunksRead };
}

describe('a 200 MB file', () => {
  it('streams a 200 MB JSONL to its bad last line, naming it, with the earlier table intact', async () => {
    const tail = '{"question": "last", "memory": \n';
    const { source, lines, size } = generated('huge.jsonl', 200 * MB, { head: '', sep: '', tail });
    expect(size).toBeGreaterThan(199 * MB);
    let progress = 0;
    let peakHeap = 0;
    const startHeap = process.memoryUsage().heapUsed;
    const err = await errorOf(() =>
      loadAsPage(
        catalog,
        source,
        { table: 'user_records' },
        {
          onBytes: (n) => {
            progress = n;
            peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - startHeap);
          },
        },
      ),
    );
    expect(err.message).toMatch(new RegExp(`^huge\\.jsonl:${lines + 1}:\\d+: expected valid JSON`));
    expect(progress).toBe(size - tail.length);
    expect(peakHeap).toBeLessThan(100 * MB);
    expect(await tableCounts(catalog)).toEqual(before);
  }, 300_000);

  it('refuses a 200 MB whole JSON document by size, before parsing it', async () => {
    const shape = { head: '[\n', sep: ',', tail: '{"question": "end", "memory": "m"}\n]\n' };
    const { source, size, chunksRead } = generated('huge.json', 200 * MB, shape);
    expect(size).toBeGreaterThan(199 * MB);
    await rejects(source, 'huge.json: expected a JSON document under 64.0 MiB');
    expect(chunksRead()).toBeLessThanOrEqual(1);
  });
});
