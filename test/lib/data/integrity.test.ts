import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ChecksumError,
  IntegrityError,
  integrityProblem,
  looksLikeHtml,
  pinnedUrl,
} from '../../../src/lib/data/integrity.ts';
import { fetchVerified, loadSiteIndex } from '../../../src/lib/data/fetch-source.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const GOOD = '{"files":["inmind-tasks"]}\n';
const PIN = { sha256: sha(GOOD), bytes: GOOD.length };
const HTML = '<!DOCTYPE html>\n<html><head><title>MemLens</title></head></html>';

describe('looksLikeHtml', () => {
  it('catches an HTML page served for a data or wasm file, by type or by its first bytes', () => {
    expect(looksLikeHtml('data/locomo/locomo10.json', null, bytes(HTML))).toBe(true);
    expect(looksLikeHtml('a.wasm', 'text/html', bytes('\0asm'))).toBe(true);
    expect(looksLikeHtml('a.json', null, bytes('\uFEFF  <html lang="en">'))).toBe(true);
    expect(looksLikeHtml('index.html', 'text/html', bytes(HTML))).toBe(false);
    expect(looksLikeHtml('a.json', 'application/json', bytes('{"<html>":1}'))).toBe(false);
    expect(looksLikeHtml('a.csv', 'text/csv', bytes('<b>,c\n'))).toBe(false);
  });
});

describe('integrityProblem', () => {
  it('names the file with expected and actual hash, and says truncated when it is', async () => {
    expect(await integrityProblem('data/index.json', PIN, bytes(GOOD))).toBeNull();
    const cut = await integrityProblem('data/index.json', PIN, bytes(GOOD.slice(0, 10)));
    expect(cut).toBeInstanceOf(ChecksumError);
    expect(cut?.message).toBe(
      `data/index.json: sha256 mismatch: expected ${PIN.sha256}, got ${sha(GOOD.slice(0, 10))} (truncated: expected ${GOOD.length} bytes, got 10)`,
    );
    const html = await integrityProblem('data/index.json', PIN, bytes(HTML), 'text/html');
    expect(html).toBeInstanceOf(IntegrityError);
    expect(html?.message).toMatch(/^data\/index\.json: the server answered with an HTML page/);
    const long = await integrityProblem('x.csv', { bytes: 3 }, bytes('abcd'));
    expect(long?.message).toBe('x.csv: too long: expected 3 bytes, got 4');
  });

  it('checks only what is pinned, but always the HTML answer', async () => {
    expect(await integrityProblem('x.json', {}, bytes('[1]'))).toBeNull();
    expect(await integrityProblem('x.json', {}, bytes(HTML))).toBeInstanceOf(IntegrityError);
  });
});

describe('pinnedUrl', () => {
  it('asks for the file by content, leaving unpinned URLs alone', () => {
    expect(pinnedUrl('http://h/memlens/data/a.json', 'ab')).toBe(
      'http://h/memlens/data/a.json?sha256=ab',
    );
    expect(pinnedUrl('http://h/a.json', null)).toBe('http://h/a.json');
  });
});

/** A server whose answers are given in order, recording each request and its cache mode. */
function scripted(answers: Response[]) {
  const seen: { url: string; cache: RequestCache | undefined }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), cache: init?.cache });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next;
  }) as typeof fetch;
  return { seen, fetchImpl };
}

describe('fetchVerified', () => {
  it('evicts a copy that fails its check and fetches it once more past every cache', async () => {
    const { seen, fetchImpl } = scripted([new Response(HTML), new Response(GOOD)]);
    const evicted: string[] = [];
    const check = async (b: Uint8Array, t: string | null) => {
      const problem = await integrityProblem('data/index.json', PIN, b, t);
      if (problem) throw problem;
    };
    const got = await fetchVerified('http://h/data/index.json', check, {
      fetchImpl,
      evict: async (u) => void evicted.push(u),
    });
    expect(got).toEqual(bytes(GOOD));
    expect(evicted).toEqual(['http://h/data/index.json']);
    expect(seen.map((s) => s.cache)).toEqual([undefined, 'reload']);
  });

  it('reports a file still wrong after the second try', async () => {
    const { fetchImpl } = scripted([new Response('x'), new Response('y')]);
    const check = async (b: Uint8Array) => {
      const problem = await integrityProblem('r.csv', PIN, b);
      if (problem) throw problem;
    };
    await expect(fetchVerified('http://h/r.csv', check, { fetchImpl })).rejects.toThrow(
      /^r\.csv: sha256 mismatch/,
    );
  });
});

describe('loadSiteIndex', () => {
  it('names data/index.json when it is HTML, not JSON or not the pinned file', async () => {
    const html = scripted([new Response(HTML, { headers: { 'Content-Type': 'text/html' } })]);
    await expect(loadSiteIndex('http://h/', html.fetchImpl)).rejects.toThrow(
      /^data\/index\.json: the server answered with an HTML page/,
    );
    const broken = scripted([new Response('{"files": [')]);
    await expect(loadSiteIndex('http://h/', broken.fetchImpl)).rejects.toThrow(
      /^data\/index\.json: not valid JSON/,
    );
    const other = scripted([new Response('{"files":[]}'), new Response('{"files":[]}')]);
    await expect(loadSiteIndex('http://h/', other.fetchImpl, PIN)).rejects.toThrow(
      /^data\/index\.json: sha256 mismatch/,
    );
    const good = scripted([new Response(GOOD)]);
    expect(await loadSiteIndex('http://h/', good.fetchImpl, PIN)).toEqual(
      new Set(['inmind-tasks']),
    );
    expect(good.seen[0].url).toBe(`http://h/data/index.json?sha256=${PIN.sha256}`);
  });
});
