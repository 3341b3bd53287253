// How the service worker answers each request. Pure: the worker supplies the request's shape
// and its scope, and gets back which cache to use and how.
import { MANIFEST_FILE, type PrecacheManifest } from './precache.ts';
import { PIN_PARAM } from '../data/integrity.ts';

export interface CacheNames {
  precache: string;
  /** Same-origin files outside the precache (DuckDB's fallback bundle, anything else). */
  runtime: string;
  models: string;
  /** Upstream benchmark files: their URLs pin a commit, so one cache serves every build. */
  upstream: string;
}

export const CACHE_PREFIX = 'memlens-';

export function cacheNamesOf(m: Pick<PrecacheManifest, 'version' | 'modelsVersion'>): CacheNames {
  return {
    precache: `${CACHE_PREFIX}precache-${m.version}`,
    runtime: `${CACHE_PREFIX}runtime-${m.version}`,
    models: `${CACHE_PREFIX}models-${m.modelsVersion}`,
    upstream: `${CACHE_PREFIX}upstream-v1`,
  };
}

/** Caches an older build left behind; other libraries' caches are never touched. */
export function staleCaches(existing: readonly string[], current: CacheNames): string[] {
  const keep = new Set(Object.values(current));
  return existing.filter((name) => name.startsWith(CACHE_PREFIX) && !keep.has(name));
}

export type Route =
  | { kind: 'passthrough' }
  /** Network first (a new deploy shows at once when online), the cached index.html offline. */
  | { kind: 'navigate' }
  /** Presence checks (model files): the network, else whether a cache holds the file. */
  | { kind: 'head' }
  /** The build's file list: the network, else the copy built into the worker. */
  | { kind: 'manifest' }
  | { kind: 'cache-first'; cache: keyof CacheNames; key: string }
  | { kind: 'network-first'; cache: keyof CacheNames; key: string };

export interface RequestShape {
  url: string;
  method: string;
  mode: string;
}

export interface RouteContext {
  /** The worker's scope: the site's base URL, ending in '/'. */
  scope: string;
  /** Precached URLs relative to the scope, as in the manifest. */
  precached: ReadonlySet<string>;
  /** sha256 of each precached file, by the same relative URL. */
  sha256: ReadonlyMap<string, string>;
  upstream: ReadonlySet<string>;
}

export function routeContext(manifest: PrecacheManifest, scope: string): RouteContext {
  return {
    scope,
    precached: new Set(manifest.precache.map((e) => e.url)),
    sha256: new Map(manifest.precache.map((e) => [e.url, e.sha256])),
    upstream: new Set(manifest.upstream),
  };
}

export function routeRequest(req: RequestShape, ctx: RouteContext): Route {
  if (req.method !== 'GET' && req.method !== 'HEAD') return { kind: 'passthrough' };
  const url = new URL(req.url);
  url.hash = '';
  const scope = new URL(ctx.scope);
  if (url.origin !== scope.origin) {
    return req.method === 'GET' && ctx.upstream.has(url.href)
      ? { kind: 'cache-first', cache: 'upstream', key: url.href }
      : { kind: 'passthrough' };
  }
  if (!url.pathname.startsWith(scope.pathname)) return { kind: 'passthrough' };
  if (req.method === 'HEAD') return { kind: 'head' };
  if (req.mode === 'navigate') return { kind: 'navigate' };
  const rel = url.pathname.slice(scope.pathname.length);
  if (rel === MANIFEST_FILE) return { kind: 'manifest' };
  if (ctx.precached.has(rel)) {
    // `?sha256=` asks for one exact file: this build's copy serves it only if the hashes agree,
    // so a page of a newer build never reads this build's data.
    const pinned = url.searchParams.get(PIN_PARAM);
    const onlyPin = pinned !== null && [...url.searchParams.keys()].length === 1;
    if (url.search === '' || (onlyPin && ctx.sha256.get(rel) === pinned)) {
      return { kind: 'cache-first', cache: 'precache', key: `${url.origin}${url.pathname}` };
    }
  }
  if (rel.startsWith('models/')) return { kind: 'cache-first', cache: 'models', key: url.href };
  // Hashed build assets never change under one name; anything else may.
  if (rel.startsWith('assets/')) return { kind: 'cache-first', cache: 'runtime', key: url.href };
  return { kind: 'network-first', cache: 'runtime', key: url.href };
}

/**
 * Headers that make a page cross-origin isolated (SharedArrayBuffer, so threaded WASM).
 * `credentialless` rather than `require-corp`: cross-origin images still load (without
 * cookies), and a browser that does not know the value just stays unisolated.
 */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

export function withIsolation(headers: Headers): Headers {
  const out = new Headers(headers);
  for (const [k, v] of Object.entries(ISOLATION_HEADERS)) out.set(k, v);
  return out;
}

/** The build's worker scripts (`assets/embed-worker-….js`, `assets/duckdb-browser-eh.worker-….js`). */
export function isWorkerScript(pathname: string): boolean {
  return /\/assets\/[^/]*worker[^/]*\.m?js$/.test(pathname);
}

/**
 * A worker gets its CSP from its script's response, not from the page's `<meta>`: the service
 * worker serves each worker script with the page's policy as a header.
 */
export function withWorkerPolicy(url: string, headers: Headers, policy: string): Headers {
  if (!isWorkerScript(new URL(url).pathname)) return headers;
  const out = new Headers(headers);
  out.set('Content-Security-Policy', policy);
  return out;
}

/** Marks a same-origin download the reader asked for: the worker lets it through untouched. */
export const READER_DOWNLOAD_HEADER = 'X-MemLens-Download';

/** Header the worker adds to each precached copy: the sha256 its bytes were checked against. */
export const VERIFIED_HEADER = 'X-MemLens-Sha256';

/** Only whole, readable answers are stored: no errors, partial content or opaque responses. */
export function isCacheable(res: { ok: boolean; status: number; type: string }): boolean {
  return (
    res.ok &&
    res.status === 200 &&
    (res.type === 'basic' || res.type === 'cors' || res.type === 'default')
  );
}

/** An HTML answer for a file that is not HTML (a host's error page or SPA fallback) is never stored. */
export function isHtmlForOther(url: string, contentType: string | null): boolean {
  const path = new URL(url).pathname.toLowerCase();
  if (path.endsWith('/') || path.endsWith('.html') || path.endsWith('.htm')) return false;
  return contentType !== null && /^\s*text\/html\b/i.test(contentType);
}
