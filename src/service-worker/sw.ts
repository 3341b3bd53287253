// MemLens service worker: precaches the build (shell, wasm, results, bundled data) at install,
// keeps models and upstream files once used, and serves everything from cache when offline.
// Built by plugin.ts into `sw.js` with the precache manifest inlined, so a new build is a new
// worker byte for byte.
import type { PrecacheEntry, PrecacheManifest } from '../lib/offline/precache.ts';
import { integrityProblem } from '../lib/data/integrity.ts';
import { storageMessage } from '../lib/common/storage-error.ts';
import {
  CACHE_PREFIX,
  READER_DOWNLOAD_HEADER,
  VERIFIED_HEADER,
  cacheNamesOf,
  isCacheable,
  isHtmlForOther,
  routeContext,
  routeRequest,
  staleCaches,
  withIsolation,
  withWorkerPolicy,
  type Route,
} from '../lib/offline/routes.ts';
import { contentSecurityPolicy, upstreamOrigins } from '../lib/offline/csp.ts';
import {
  isWeights,
  summarizeCaches,
  type FromWorkerMessage,
  type ToWorkerMessage,
} from '../lib/offline/messages.ts';

declare const __MEMLENS_MANIFEST__: PrecacheManifest;

const sw = self as unknown as ServiceWorkerGlobalScope;
const MANIFEST = __MEMLENS_MANIFEST__;
const NAMES = cacheNamesOf(MANIFEST);
const scope = sw.registration.scope;
const ctx = routeContext(MANIFEST, scope);
const abs = (rel: string) => new URL(rel, scope).href;
const NAVIGATION_TIMEOUT_MS = 4000;
const PRECACHE_CONCURRENCY = 4;

async function broadcast(message: FromWorkerMessage): Promise<void> {
  const clients = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const c of clients) c.postMessage(message);
}

const ENTRIES = new Map(MANIFEST.precache.map((e) => [abs(e.url), e]));

/**
 * Fetches a precached file and returns a copy to store, marked with the sha256 it was checked
 * against, or why the bytes are not the built file (HTML instead, truncated, another hash).
 * A network failure throws, as fetch does.
 */
async function fetchChecked(e: PrecacheEntry, mode: RequestCache): Promise<Response | string> {
  const res = await fetch(abs(e.url), { cache: mode });
  if (!isCacheable(res)) return `${e.url}: HTTP ${res.status}`;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const problem = await integrityProblem(e.url, e, bytes, res.headers.get('content-type'));
  if (problem) return problem.message;
  const headers = new Headers(res.headers);
  headers.set(VERIFIED_HEADER, e.sha256);
  return new Response(bytes, { status: 200, statusText: 'OK', headers });
}

const isVerified = (res: Response | undefined, e: PrecacheEntry) =>
  res?.headers.get(VERIFIED_HEADER) === e.sha256;

/** A file that failed its check is answered with an error naming it, never with its bytes. */
function verificationFailure(reason: string): Response {
  return new Response(`MemLens: ${reason}`, {
    status: 502,
    statusText: 'Failed verification',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

async function precacheOne(e: PrecacheEntry, cache: Cache): Promise<void> {
  // Hashed assets may come from the HTTP cache; unhashed files are revalidated. A second try
  // bypasses the HTTP cache, in case it holds the bad copy.
  const first = await fetchChecked(e, e.url.startsWith('assets/') ? 'default' : 'no-cache');
  const res = typeof first === 'string' ? await fetchChecked(e, 'reload') : first;
  if (typeof res === 'string') {
    await broadcast({
      type: 'precache-failed',
      version: MANIFEST.version,
      url: e.url,
      reason: res,
    });
    throw new Error(`precache ${res}`);
  }
  try {
    await cache.put(abs(e.url), res);
  } catch (err) {
    const reason = storageMessage(err, e.url);
    await broadcast({ type: 'precache-failed', version: MANIFEST.version, url: e.url, reason });
    throw err;
  }
}

async function precacheAll(): Promise<void> {
  const cache = await caches.open(NAMES.precache);
  const todo: PrecacheEntry[] = [];
  for (const e of MANIFEST.precache) {
    if (!isVerified(await cache.match(abs(e.url)), e)) todo.push(e);
  }
  const total = MANIFEST.precache.length;
  let done = total - todo.length;
  const next = () => todo.shift();
  const worker = async () => {
    for (let e = next(); e; e = next()) {
      await precacheOne(e, cache);
      done++;
      await broadcast({ type: 'precache-progress', version: MANIFEST.version, done, total });
    }
  };
  await Promise.all(Array.from({ length: PRECACHE_CONCURRENCY }, worker));
}

sw.addEventListener('install', (event) => event.waitUntil(precacheAll()));

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of staleCaches(await caches.keys(), NAMES)) await caches.delete(name);
      // A first install takes over the open page; an update only activates once no page
      // runs the old build (or the user asked for it), so this never swaps code under a page.
      await sw.clients.claim();
    })(),
  );
});

/** The page's policy (without its import map's hash, which a worker does not need). */
const WORKER_POLICY = contentSecurityPolicy(upstreamOrigins(MANIFEST.upstream));

/** Same-origin answers: isolation headers when the build asks for them, a CSP on worker scripts. */
function isolate(res: Response, url: string): Response {
  if (res.type === 'opaque' || res.status === 0) return res;
  const isolated = MANIFEST.coi ? withIsolation(res.headers) : res.headers;
  const headers = withWorkerPolicy(url, isolated, WORKER_POLICY);
  if (headers === res.headers) return res;
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/** Runtime copies are bounded: an answer announced as huge streams through, unstored. */
const MAX_RUNTIME_BYTES = 256 * 1024 * 1024;

function storable(res: Response, key: string, cacheName: string): boolean {
  if (!isCacheable(res) || isHtmlForOther(key, res.headers.get('content-type'))) return false;
  return (
    cacheName !== NAMES.runtime || Number(res.headers.get('content-length')) <= MAX_RUNTIME_BYTES
  );
}

async function fetchAndStore(request: Request, cacheName: string, key: string) {
  const res = await fetch(request);
  if (storable(res, key, cacheName)) {
    const cache = await caches.open(cacheName);
    // A full cache (quota) only means no offline copy: the page still gets its answer.
    const kept = await cache.put(key, res.clone()).then(
      () => true,
      () => false,
    );
    if (!kept) return res;
    if (cacheName !== NAMES.precache) {
      void broadcast({ type: 'cache-changed', version: MANIFEST.version });
    }
  }
  return res;
}

/** A precached file is served only as the copy checked against this build's sha256. */
async function fromPrecache(request: Request, key: string): Promise<Response> {
  const entry = ENTRIES.get(key);
  const cache = await caches.open(NAMES.precache);
  const hit = await cache.match(key);
  if (!entry) return hit ?? fetch(request);
  if (isVerified(hit, entry) && hit) return hit;
  if (hit) await cache.delete(key);
  const res = await fetchChecked(entry, 'no-cache');
  if (typeof res === 'string') return verificationFailure(res);
  await cache.put(key, res.clone()).catch(() => undefined);
  return res;
}

async function cacheFirst(request: Request, cacheName: string, key: string): Promise<Response> {
  if (cacheName === NAMES.precache) return fromPrecache(request, key);
  const hit = await caches.match(key, { cacheName });
  return hit ?? fetchAndStore(request, cacheName, key);
}

const keptModels = new Set<string>();

/**
 * A model's small files (config, tokenizer, vocab) are kept with the first file used, so the
 * presence check finds the whole model offline; weights are kept as their dtype is loaded.
 */
async function keepModelFiles(url: string): Promise<void> {
  const model = MANIFEST.models.find((m) =>
    url.startsWith(abs(`models/${encodeURIComponent(m.id)}/`)),
  );
  if (!model || keptModels.has(model.id)) return;
  keptModels.add(model.id);
  const cache = await caches.open(NAMES.models);
  for (const f of model.files.filter((f) => !isWeights(f.url))) {
    if (await cache.match(abs(f.url))) continue;
    const res = await fetch(abs(f.url)).catch(() => null);
    if (!res || !isCacheable(res) || isHtmlForOther(abs(f.url), res.headers.get('content-type'))) {
      keptModels.delete(model.id);
      return;
    }
    await cache.put(abs(f.url), res);
  }
  await broadcast({ type: 'cache-changed', version: MANIFEST.version });
}

async function networkFirst(request: Request, cacheName: string, key: string) {
  try {
    return await fetchAndStore(request, cacheName, key);
  } catch (err) {
    const hit = await caches.match(key, { cacheName });
    if (hit) return hit;
    throw err;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

/**
 * Pages the worker answered with the cached shell because the network failed (not merely slow).
 * navigator.onLine can stay true then (a LAN without a route out, or an emulated offline
 * reload), so this is what tells the page it is the saved copy.
 */
const savedCopyClients = new Set<string>();

/** A slow network yields to the cached shell; with no shell, the network answer is awaited. */
async function navigate(request: Request, clientId: string): Promise<Response> {
  let failed = false;
  const network = fetch(request);
  network.catch(() => (failed = true));
  try {
    const res = await withTimeout(network, NAVIGATION_TIMEOUT_MS);
    savedCopyClients.delete(clientId);
    return res;
  } catch {
    const hit = await caches.match(abs('index.html'), { cacheName: NAMES.precache });
    if (hit && failed && clientId) savedCopyClients.add(clientId);
    return hit ?? network;
  }
}

/** Offline, a HEAD request is answered from whichever MemLens cache holds the file. */
async function head(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (err) {
    for (const cacheName of Object.values(NAMES)) {
      const hit = await caches.match(request.url, { cacheName });
      if (hit) return new Response(null, { status: hit.status, headers: hit.headers });
    }
    throw err;
  }
}

async function manifestFile(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    return new Response(JSON.stringify(MANIFEST), {
      headers: { 'Content-Type': 'application/json' },
    });
  }
}

function answer(route: Exclude<Route, { kind: 'passthrough' }>, event: FetchEvent) {
  const { request } = event;
  switch (route.kind) {
    case 'navigate':
      return navigate(request, event.resultingClientId);
    case 'head':
      return head(request);
    case 'manifest':
      return manifestFile(request);
    case 'cache-first':
      return cacheFirst(request, NAMES[route.cache], route.key);
    case 'network-first':
      return networkFirst(request, NAMES[route.cache], route.key);
  }
}

sw.addEventListener('fetch', (event) => {
  // The reader's own downloads (Your data → URL) are marked: never kept, never teed.
  if (event.request.headers.has(READER_DOWNLOAD_HEADER)) return;
  const route = routeRequest(event.request, ctx);
  if (route.kind === 'passthrough') return;
  const sameOrigin = route.kind !== 'cache-first' || route.cache !== 'upstream';
  if (route.kind === 'cache-first' && route.cache === 'models') {
    event.waitUntil(keepModelFiles(route.key));
  }
  event.respondWith(
    answer(route, event).then((res) => (sameOrigin ? isolate(res, event.request.url) : res)),
  );
});

async function cachedUrls(cacheName: string): Promise<Set<string>> {
  if (!(await caches.has(cacheName))) return new Set();
  const cache = await caches.open(cacheName);
  return new Set((await cache.keys()).map((r) => r.url));
}

async function status(port: MessagePort, clientId: string | null): Promise<void> {
  const report = summarizeCaches(MANIFEST, scope, {
    precache: await cachedUrls(NAMES.precache),
    models: await cachedUrls(NAMES.models),
    upstream: await cachedUrls(NAMES.upstream),
  });
  // Said once: the page keeps it until it hears the network come back ('online').
  const savedCopy = clientId !== null && savedCopyClients.delete(clientId);
  const message: FromWorkerMessage = { type: 'status', report, savedCopy };
  port.postMessage(message);
}

/** Upstream files the page loaded before this worker controlled it are kept too. */
async function keepUpstream(urls: readonly string[]): Promise<void> {
  const cache = await caches.open(NAMES.upstream);
  let added = 0;
  for (const url of urls) {
    if (!ctx.upstream.has(url) || (await cache.match(url))) continue;
    const res = await fetch(url, { mode: 'cors' }).catch(() => null);
    if (res && isCacheable(res) && !isHtmlForOther(url, res.headers.get('content-type'))) {
      await cache.put(url, res);
      added++;
    }
  }
  if (added > 0) await broadcast({ type: 'cache-changed', version: MANIFEST.version });
}

/** Drops each URL (with and without its query) from every MemLens cache. */
async function evict(urls: readonly string[], port: MessagePort | undefined): Promise<void> {
  const names = (await caches.keys()).filter((n) => n.startsWith(CACHE_PREFIX));
  const gone: string[] = [];
  for (const url of urls) {
    const u = new URL(url, scope);
    const keys = new Set([u.href, `${u.origin}${u.pathname}`]);
    for (const name of names) {
      const cache = await caches.open(name);
      for (const key of keys) if (await cache.delete(key)) gone.push(key);
    }
  }
  const reply: FromWorkerMessage = { type: 'evicted', urls: gone };
  port?.postMessage(reply);
  if (gone.length > 0) await broadcast({ type: 'cache-changed', version: MANIFEST.version });
}

sw.addEventListener('message', (event) => {
  const data = event.data as ToWorkerMessage | null;
  if (data?.type === 'skip-waiting') event.waitUntil(sw.skipWaiting());
  else if (data?.type === 'status' && event.ports[0])
    event.waitUntil(
      status(event.ports[0], event.source instanceof Client ? event.source.id : null),
    );
  else if (data?.type === 'keep-upstream') event.waitUntil(keepUpstream(data.urls));
  else if (data?.type === 'evict') event.waitUntil(evict(data.urls, event.ports[0]));
});
