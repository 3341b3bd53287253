import { describe, expect, it } from 'vitest';
import {
  ISOLATION_HEADERS,
  cacheNamesOf,
  isCacheable,
  routeContext,
  routeRequest,
  staleCaches,
  isHtmlForOther,
  isWorkerScript,
  withIsolation,
  withWorkerPolicy,
} from '../../../src/lib/offline/routes.ts';
import type { PrecacheManifest } from '../../../src/lib/offline/precache.ts';

const UPSTREAM = 'https://raw.githubusercontent.com/imlrz/InMind/abc/x.jsonl';
const manifest: PrecacheManifest = {
  version: 'v1',
  coi: false,
  precache: [
    { url: 'index.html', bytes: 1, sha256: 'h-index.html', group: 'shell' },
    { url: 'assets/index-a.js', bytes: 1, sha256: 'h-assets/index-a.js', group: 'shell' },
    {
      url: 'data/inmind/inmind_en.jsonl',
      bytes: 1,
      sha256: 'h-data/inmind/inmind_en.jsonl',
      group: 'data',
    },
  ],
  precacheBytes: 3,
  models: [],
  modelsVersion: 'm1',
  upstream: [UPSTREAM],
};
const ctx = routeContext(manifest, 'http://127.0.0.1:8080/memlens/');
const get = (url: string, mode = 'cors') => routeRequest({ url, method: 'GET', mode }, ctx);
const SITE = 'http://127.0.0.1:8080/memlens/';

describe('routeRequest under the base /memlens/', () => {
  it('serves navigations network first, with the cached shell offline', () => {
    expect(get(SITE, 'navigate')).toEqual({ kind: 'navigate' });
    expect(get(`${SITE}index.html#/inmind?emb=MiniLM`, 'navigate')).toEqual({ kind: 'navigate' });
  });

  it('serves precached files cache first, by URL without its fragment', () => {
    expect(get(`${SITE}assets/index-a.js`)).toEqual({
      kind: 'cache-first',
      cache: 'precache',
      key: `${SITE}assets/index-a.js`,
    });
    expect(get(`${SITE}data/inmind/inmind_en.jsonl`)).toMatchObject({ cache: 'precache' });
    expect(get(`${SITE}data/inmind/inmind_en.jsonl?x=1`)).toMatchObject({ kind: 'network-first' });
  });

  it('serves a file asked for by sha256 from the precache only when the hashes agree', () => {
    const file = `${SITE}data/inmind/inmind_en.jsonl`;
    expect(get(`${file}?sha256=h-data/inmind/inmind_en.jsonl`)).toEqual({
      kind: 'cache-first',
      cache: 'precache',
      key: file,
    });
    // A newer build's page asks for other bytes: this build's copy must not answer.
    expect(get(`${file}?sha256=other`)).toEqual({
      kind: 'network-first',
      cache: 'runtime',
      key: `${file}?sha256=other`,
    });
    expect(get(`${file}?sha256=h-data/inmind/inmind_en.jsonl&x=1`)).toMatchObject({
      kind: 'network-first',
    });
  });

  it('keeps models and unlisted hashed assets once fetched, other files network first', () => {
    expect(get(`${SITE}models/tiny-bert/onnx/model.onnx`)).toMatchObject({
      kind: 'cache-first',
      cache: 'models',
    });
    expect(get(`${SITE}assets/duckdb-mvp-y.wasm`)).toMatchObject({
      kind: 'cache-first',
      cache: 'runtime',
    });
    expect(get(`${SITE}data/unknown.json`)).toMatchObject({
      kind: 'network-first',
      cache: 'runtime',
    });
  });

  it('answers presence checks and the file list itself specially', () => {
    const head = routeRequest(
      { url: `${SITE}models/x/config.json`, method: 'HEAD', mode: 'cors' },
      ctx,
    );
    expect(head).toEqual({ kind: 'head' });
    expect(get(`${SITE}precache-manifest.json`)).toEqual({ kind: 'manifest' });
  });

  it('keeps pinned upstream files and leaves every other request alone', () => {
    expect(get(UPSTREAM)).toEqual({ kind: 'cache-first', cache: 'upstream', key: UPSTREAM });
    expect(get('https://huggingface.co/x/resolve/main/config.json')).toEqual({
      kind: 'passthrough',
    });
    expect(get('http://127.0.0.1:8080/other/index.html', 'navigate')).toEqual({
      kind: 'passthrough',
    });
    expect(routeRequest({ url: SITE, method: 'POST', mode: 'cors' }, ctx)).toEqual({
      kind: 'passthrough',
    });
    expect(routeRequest({ url: UPSTREAM, method: 'HEAD', mode: 'cors' }, ctx)).toEqual({
      kind: 'passthrough',
    });
  });

  it('works the same at the root of a domain', () => {
    const root = routeContext(manifest, 'https://example.org/');
    expect(
      routeRequest({ url: 'https://example.org/index.html', method: 'GET', mode: 'no-cors' }, root),
    ).toMatchObject({
      cache: 'precache',
    });
  });
});

describe('caches and headers', () => {
  it('names caches by build and model version and prunes only older MemLens caches', () => {
    const names = cacheNamesOf(manifest);
    expect(names.precache).toBe('memlens-precache-v1');
    expect(names.models).toBe('memlens-models-m1');
    const stale = staleCaches(
      [
        'memlens-precache-v0',
        'memlens-precache-v1',
        'memlens-models-m0',
        'transformers-cache',
        'memlens-upstream-v1',
      ],
      names,
    );
    expect(stale).toEqual(['memlens-precache-v0', 'memlens-models-m0']);
  });

  it('adds COOP, COEP (credentialless) and CORP without dropping other headers', () => {
    const h = withIsolation(new Headers({ 'Content-Type': 'text/html' }));
    expect(h.get('content-type')).toBe('text/html');
    for (const [k, v] of Object.entries(ISOLATION_HEADERS)) expect(h.get(k)).toBe(v);
    expect(h.get('cross-origin-embedder-policy')).toBe('credentialless');
  });

  it('stores only whole, readable answers', () => {
    expect(isCacheable({ ok: true, status: 200, type: 'basic' })).toBe(true);
    expect(isCacheable({ ok: true, status: 200, type: 'cors' })).toBe(true);
    expect(isCacheable({ ok: true, status: 206, type: 'basic' })).toBe(false);
    expect(isCacheable({ ok: false, status: 404, type: 'basic' })).toBe(false);
    expect(isCacheable({ ok: false, status: 0, type: 'opaque' })).toBe(false);
  });
});

describe('isHtmlForOther', () => {
  it('flags an HTML answer for a data or wasm file, never for a page', () => {
    expect(isHtmlForOther(`${SITE}data/locomo/locomo10.json`, 'text/html; charset=utf-8')).toBe(
      true,
    );
    expect(isHtmlForOther(`${SITE}assets/duckdb-eh.wasm`, ' TEXT/HTML')).toBe(true);
    expect(isHtmlForOther(`${SITE}data/locomo/locomo10.json`, 'application/json')).toBe(false);
    expect(isHtmlForOther(`${SITE}index.html`, 'text/html')).toBe(false);
    expect(isHtmlForOther(SITE, 'text/html')).toBe(false);
    expect(isHtmlForOther(`${SITE}x.json`, null)).toBe(false);
  });
});

describe('worker scripts get a policy of their own', () => {
  it("adds the page's CSP to the build's worker scripts only", () => {
    const policy = "default-src 'self'; connect-src 'self'";
    const base = 'http://127.0.0.1:4173/memlens/assets/';
    for (const name of [
      'embed-worker-COYcXNWX.js',
      'duckdb-browser-eh.worker-hQa-dcAV.js',
      'map-worker-plB4Jhg-.js',
    ]) {
      expect(
        withWorkerPolicy(base + name, new Headers(), policy).get('Content-Security-Policy'),
      ).toBe(policy);
    }
    const page = new Headers({ 'Content-Type': 'text/javascript' });
    expect(withWorkerPolicy(`${base}index-lhtLwlRG.js`, page, policy)).toBe(page);
    expect(isWorkerScript('/memlens/data/worker.json')).toBe(false);
  });
});
