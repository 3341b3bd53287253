import { describe, expect, it } from 'vitest';
import {
  STALL_SECONDS,
  fetchUrlSource,
  resolveUrl,
} from '../../../../src/features/mydata/core/url-source.ts';
import { freeTableName } from '../../../../src/lib/userdata/table-name.ts';

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

  it('stops a body that stalls after its headers, naming the bytes read and the wait', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"q":"a"}\n12'));
      },
    });
    let aborted = false;
    await expect(
      fetchUrlSource(target, {
        fetchImpl: async (_url, init) => {
          init?.signal?.addEventListener('abort', () => (aborted = true));
          return new Response(body);
        },
        stallMs: 50,
      }),
    ).rejects.toThrow(
      'http://127.0.0.1:1/memlens/endless.jsonl: no byte after the first 12 B for 0.05 s, so the download was stopped',
    );
    expect(aborted).toBe(true);
    expect(STALL_SECONDS).toBe(15);
  });

  it("names the stall even when the abort fails the pending read first, as a browser's body does", async () => {
    let fail: (err: Error) => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"q":"a"}\n12'));
        fail = (err) => controller.error(err);
      },
    });
    await expect(
      fetchUrlSource(target, {
        fetchImpl: async (_url, init) => {
          init?.signal?.addEventListener('abort', () =>
            fail(new Error('BodyStreamBuffer was aborted')),
          );
          return new Response(body);
        },
        stallMs: 50,
      }),
    ).rejects.toThrow('no byte after the first 12 B for 0.05 s, so the download was stopped');
  });

  it('still cancels at once while waiting for a stalled server', async () => {
    const cancel = new AbortController();
    const fetching = fetchUrlSource(target, {
      signal: cancel.signal,
      stallMs: 60_000,
      fetchImpl: (_url, init) =>
        new Promise((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    cancel.abort();
    await expect(fetching).rejects.toThrow('aborted');
  });

  it("names the site's policy, and the origins it allows, when it blocks another origin", async () => {
    const far = resolveUrl('http://127.0.0.1:4358/x.jsonl', 'http://127.0.0.1:1/memlens/');
    await expect(
      fetchUrlSource(far, {
        fetchImpl: async () => {
          throw new TypeError('Failed to fetch');
        },
        connectSources: ["'self'", 'https://huggingface.co'],
      }),
    ).rejects.toThrow(
      "http://127.0.0.1:4358/x.jsonl: blocked by this site's Content-Security-Policy, which lets the page fetch only from http://127.0.0.1:1 (this site), https://huggingface.co; download the file and pick it instead",
    );
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
