// Messages between the page and the service worker, and the status report built from the
// worker's caches.
import { PRECACHE_GROUPS, type PrecacheGroup, type PrecacheManifest } from './precache.ts';

export type ToWorkerMessage =
  | { type: 'status' }
  | { type: 'skip-waiting' }
  /** Cross-origin URLs the page fetched before the worker controlled it. */
  | { type: 'keep-upstream'; urls: string[] }
  /** Files the page found corrupt (a failed check or instantiation): dropped from every cache. */
  | { type: 'evict'; urls: string[] };

export type FromWorkerMessage =
  | { type: 'precache-progress'; version: string; done: number; total: number }
  | { type: 'cache-changed'; version: string }
  /** `savedCopy`: the asking page is the cached shell, served because the network failed. */
  | { type: 'status'; report: OfflineReport; savedCopy: boolean }
  /** A precached file failed its check twice: the install stops, and says which file. */
  | { type: 'precache-failed'; version: string; url: string; reason: string }
  | { type: 'evicted'; urls: string[] };

export interface GroupStatus {
  files: number;
  bytes: number;
  cachedFiles: number;
}

export interface OfflineReport {
  version: string;
  coi: boolean;
  precache: GroupStatus & { cachedBytes: number; complete: boolean };
  groups: Record<PrecacheGroup, GroupStatus>;
  models: (GroupStatus & { id: string; ready: boolean; cachedBytes: number })[];
  upstream: { total: number; cached: string[] };
}

export interface CachedUrls {
  /** Absolute URLs held by each cache. */
  precache: ReadonlySet<string>;
  models: ReadonlySet<string>;
  upstream: ReadonlySet<string>;
}

/** ONNX weights: one file per dtype, and a model works offline with any one of them. */
export function isWeights(url: string): boolean {
  return url.endsWith('.onnx') || url.endsWith('.onnx_data');
}

export function summarizeCaches(
  manifest: PrecacheManifest,
  scope: string,
  cached: CachedUrls,
): OfflineReport {
  const abs = (rel: string) => new URL(rel, scope).href;
  const groups = Object.fromEntries(
    PRECACHE_GROUPS.map((g) => [g, { files: 0, bytes: 0, cachedFiles: 0 }]),
  ) as Record<PrecacheGroup, GroupStatus>;
  let cachedFiles = 0;
  let cachedBytes = 0;
  for (const e of manifest.precache) {
    const g = groups[e.group];
    g.files++;
    g.bytes += e.bytes;
    if (cached.precache.has(abs(e.url))) {
      g.cachedFiles++;
      cachedFiles++;
      cachedBytes += e.bytes;
    }
  }
  const files = manifest.precache.length;
  return {
    version: manifest.version,
    coi: manifest.coi,
    precache: {
      files,
      bytes: manifest.precacheBytes,
      cachedFiles,
      cachedBytes,
      complete: cachedFiles === files,
    },
    groups,
    models: manifest.models.map((m) => {
      const has = (f: { url: string }) => cached.models.has(abs(f.url));
      return {
        id: m.id,
        files: m.files.length,
        bytes: m.files.reduce((s, f) => s + f.bytes, 0),
        cachedFiles: m.files.filter(has).length,
        cachedBytes: m.files.filter(has).reduce((s, f) => s + f.bytes, 0),
        ready:
          m.files.filter((f) => !isWeights(f.url)).every(has) &&
          m.files.some((f) => isWeights(f.url) && has(f)),
      };
    }),
    upstream: {
      total: manifest.upstream.length,
      cached: manifest.upstream.filter((u) => cached.upstream.has(u)),
    },
  };
}
