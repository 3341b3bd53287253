import { describe, expect, it } from 'vitest';
import { fetchUrlSource, resolveUrl } from '../../../src/lib/userdata/url-source.ts';
import { freeTableName } from '../../../src/lib/userdata/table-name.ts';

const target = resolveUrl('/memlens/endless.jsonl', 'http://127.0.0.1:1/memlens/');

/** A body that never ends, counting how much of it was pulled. */
function endless(): { response: Response; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { response: new Response(body), pulled: () => pulled };
}

describe('fetchUrlSource', () => {
  it('stops an endless answer at the cap with a clear message, reporting progress', async () => {
    const { response, pulled } = endless();
    const seen: number[] = [];
    await expect(
      fetchUrlSource(target, {
        fetchImpl: async () => response,
        maxBytes: 1024 * 1024,
        onBytes: (read) => seen.push(read),
      }),
    ).rejects.toThrow(
      'http://127.0.0.1:1/memlens/endless.jsonl: stopped after 1.0 MiB; files fetched by URL are limited to 1.0 MiB: download it and pick the file instead',
    );
    expect(pulled()).toBeLessThan(2 * 1024 * 1024);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.at(-1)).toBe(1024 * 1024);
  });

  it('refuses at once a file whose announced size is over the cap', async () => {
    const response = new Response('x'.repeat(10), { headers: { 'Content-Length': '10' } });
    await expect(
      fetchUrlSource(target, { fetchImpl: async () => response, maxBytes: 5 }),
    ).rejects.toThrow(/the server announces 10 B; files fetched by URL are limited to 5 B/);
  });

  it('reads a file under the cap', async () => {
    const response = new Response('{"q":"a"}\n');
    const source = await fetchUrlSource(target, { fetchImpl: async () => response });
    expect(source.size).toBe(10);
  });
});

describe('freeTableName', () => {
  it('keeps a free name and numbers a taken one, within 53 characters', () => {
    expect(freeTableName('user_good', new Set())).toBe('user_good');
    expect(freeTableName('user_good', new Set(['user_good', 'user_good_2']))).toBe('user_good_3');
    const long = `user_${'x'.repeat(48)}`;
    const next = freeTableName(long, new Set([long]));
    expect(next).toHaveLength(53);
    expect(next.endsWith('_2')).toBe(true);
  });
});
