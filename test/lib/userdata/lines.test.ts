import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/lib/userdata/lines.ts';
import { bytesSource } from '../../../src/lib/userdata/byte-source.ts';
import { invalidUtf8Offset } from '../../../src/lib/userdata/utf8.ts';
import { chunked, collect, errorOf } from './helpers.ts';

const text = '\uFEFFfirst\r\nsecond: ü€😀\n\nfourth';

describe('readLines', () => {
  it.each([1, 2, 3, 5, 64])('splits lines the same way with %i-byte chunks', async (size) => {
    const lines = await collect(readLines(chunked('f.txt', text, size)));
    expect(lines).toEqual([
      { line: 1, text: 'first' },
      { line: 2, text: 'second: ü€😀' },
      { line: 3, text: '' },
      { line: 4, text: 'fourth' },
    ]);
  });

  it('reports progress in bytes', async () => {
    const seen: number[] = [];
    await collect(readLines(chunked('f.txt', text, 8), { onBytes: (n) => seen.push(n) }));
    expect(seen.at(-1)).toBe(new TextEncoder().encode(text).length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('names line and column of a byte that is not UTF-8, even across chunks', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('ok\nab'), 0xe9, 0x0a]);
    const err = await errorOf(() => collect(readLines(chunked('x.csv', bytes, 1))));
    expect(err.message).toBe(
      'x.csv:2:3: expected UTF-8 text, found byte 0xE9, which is not valid UTF-8 (Latin-1 or Windows-1252? save the file as UTF-8)',
    );
  });

  it('rejects an over-long line before holding it', async () => {
    const source = bytesSource('big.jsonl', `ok\n${'x'.repeat(5000)}\n`);
    const err = await errorOf(() => collect(readLines(source, { maxLineBytes: 1000 })));
    expect(err.message).toMatch(/^big\.jsonl:2: expected lines under 1000 B/);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      collect(readLines(bytesSource('a', 'x\ny'), { signal: controller.signal })),
    ).rejects.toThrow();
  });
});

describe('invalidUtf8Offset', () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0xc3, 0xbc], -1],
    [[0x61, 0xc3], 1],
    [[0xc0, 0x80], 0],
    [[0xed, 0xa0, 0x80], 0],
    [[0xf0, 0x9f, 0x98, 0x80], -1],
    [[0xf4, 0x90, 0x80, 0x80], 0],
    [[0x61, 0x80], 1],
  ])('%j → %i', (bytes, offset) => {
    expect(invalidUtf8Offset(new Uint8Array(bytes))).toBe(offset);
  });
});
