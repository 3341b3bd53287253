// What the service worker keeps for offline use, decided from the built files alone so that one
// rule serves every base path. URLs are relative to the site's base (the worker's scope).
import { sha256Hex } from '../common/sha256.ts';

/** shell: HTML, JS, CSS; engine: the wasm runtimes; results: released-results CSVs; data: bundled benchmark files. */
export const PRECACHE_GROUPS = ['shell', 'engine', 'results', 'data'] as const;
export type PrecacheGroup = (typeof PRECACHE_GROUPS)[number];

/** model: under `models/`; fallback: DuckDB's MVP bundle, only fetched by browsers without wasm exceptions. */
export type AssetClass = PrecacheGroup | 'model' | 'fallback' | 'skip';

export interface BuiltFile {
  /** Relative to the build output, '/'-separated. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface PrecacheEntry {
  url: string;
  bytes: number;
  /** The worker stores the file only when its bytes hash to this. */
  sha256: string;
  group: PrecacheGroup;
}

export interface ModelListing {
  id: string;
  files: { url: string; bytes: number }[];
}

export interface PrecacheManifest {
  /** Hash of every precached file and the settings below: a new value is a new cache. */
  version: string;
  /** Whether the worker adds COOP/COEP headers so the page is cross-origin isolated. */
  coi: boolean;
  precache: PrecacheEntry[];
  precacheBytes: number;
  /** Models the site serves; cached on first use. */
  models: ModelListing[];
  /** Hash of the model files: the models' runtime cache is kept until they change. */
  modelsVersion: string;
  /** Pinned upstream URLs (benchmark files the site does not bundle); cached on first use. */
  upstream: string[];
  /** Files not precached that the page may still run (DuckDB's MVP bundle): checked when fetched. */
  fallback?: { url: string; bytes: number; sha256: string }[];
}

export const MANIFEST_FILE = 'precache-manifest.json';
/** Bumped when the worker's storing rules change, so caches filled under older rules are dropped. */
export const CACHE_FORMAT = 2;
export const SW_FILE = 'sw.js';

/** A site vector pack fetched on first use (runtime-cached), not at install: LoCoMo's. */
export const ON_USE_PACK_SUFFIX = '.on-use.parquet';

const FALLBACK = /^assets\/duckdb-(mvp|browser-mvp)[^/]*$/;

export function classifyAsset(path: string): AssetClass {
  if (path === SW_FILE || path === MANIFEST_FILE || path.endsWith('.map')) return 'skip';
  if (path.split('/').some((part) => part.startsWith('.'))) return 'skip';
  // The models' provenance file is page text (the Overview's model table), not a model.
  if (path.startsWith('models/')) return path.includes('/', 7) ? 'model' : 'shell';
  if (FALLBACK.test(path)) return 'fallback';
  if (path.startsWith('vectors/') && path.endsWith(ON_USE_PACK_SUFFIX)) return 'skip';
  if (path.endsWith('.wasm')) return 'engine';
  if (path.startsWith('data/')) return 'data';
  if (path.startsWith('assets/') && path.endsWith('.csv')) return 'results';
  return 'shell';
}

function isPrecached(cls: AssetClass): cls is PrecacheGroup {
  return (PRECACHE_GROUPS as readonly string[]).includes(cls);
}

/** Percent-encodes each path segment, so a file name becomes a valid relative URL. */
export function fileUrl(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function modelListings(files: readonly BuiltFile[]): ModelListing[] {
  const byId = new Map<string, ModelListing>();
  for (const f of files) {
    if (classifyAsset(f.path) !== 'model') continue;
    const id = f.path.split('/')[1];
    if (!id) continue;
    const listing = byId.get(id) ?? { id, files: [] };
    listing.files.push({ url: fileUrl(f.path), bytes: f.bytes });
    byId.set(id, listing);
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export interface ManifestOptions {
  coi: boolean;
  upstream: readonly string[];
}

const byPath = (a: BuiltFile, b: BuiltFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export async function buildPrecacheManifest(
  files: readonly BuiltFile[],
  opts: ManifestOptions,
): Promise<PrecacheManifest> {
  const sorted = [...files].sort(byPath);
  const precache: PrecacheEntry[] = [];
  const fallback: { url: string; bytes: number; sha256: string }[] = [];
  for (const f of sorted) {
    const cls = classifyAsset(f.path);
    const url = fileUrl(f.path);
    if (isPrecached(cls)) precache.push({ url, bytes: f.bytes, sha256: f.sha256, group: cls });
    else if (cls === 'fallback') fallback.push({ url, bytes: f.bytes, sha256: f.sha256 });
  }
  const precached = new Set(precache.map((e) => e.url));
  const fingerprint = (list: readonly BuiltFile[]) =>
    list.map((f) => `${f.path}\t${f.sha256}`).join('\n');
  const models = sorted.filter((f) => classifyAsset(f.path) === 'model');
  const upstream = [...new Set(opts.upstream)].sort();
  const version = await sha256Hex(
    [
      fingerprint(sorted.filter((f) => precached.has(fileUrl(f.path)))),
      `coi=${opts.coi}`,
      `format=${CACHE_FORMAT}`,
      upstream.join('\n'),
    ].join('\n--\n'),
  );
  return {
    version: version.slice(0, 16),
    coi: opts.coi,
    precache,
    precacheBytes: precache.reduce((s, e) => s + e.bytes, 0),
    models: modelListings(sorted),
    modelsVersion: (await sha256Hex(fingerprint(models))).slice(0, 16),
    upstream,
    fallback,
  };
}

export function groupTotals(
  entries: readonly PrecacheEntry[],
): Record<PrecacheGroup, { files: number; bytes: number }> {
  const totals = Object.fromEntries(
    PRECACHE_GROUPS.map((g) => [g, { files: 0, bytes: 0 }]),
  ) as Record<PrecacheGroup, { files: number; bytes: number }>;
  for (const e of entries) {
    totals[e.group].files++;
    totals[e.group].bytes += e.bytes;
  }
  return totals;
}
