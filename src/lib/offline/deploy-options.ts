// Build-time choices for a deployed site, read from the environment by the Vite plugin.
// Type-only imports: the Vite config loads this file, and sources.ts imports JSON.
import type { SourceFile } from '../data/sources.ts';

/** Where `npm run data` writes the site's data index (sources.ts: SITE_INDEX_FILE). */
export const SITE_INDEX_PATH = 'data/index.json';

export interface DeployOptions {
  /** Delete from the build every data file whose licence does not allow redistribution. */
  redistributableOnly: boolean;
  /** Let the browser fetch files the site lacks from their pinned upstream URLs. */
  allowUpstream: boolean;
  /** The service worker adds COOP/COEP so the page is cross-origin isolated (threaded WASM). */
  coi: boolean;
  /** Model files larger than this are left out (GitHub Pages refuses files over 100 MB). */
  maxModelFileBytes: number | null;
  /** Ship `vectors/` (the site's own vector packs); off in test builds, which embed. Default on. */
  siteVectors?: boolean;
}

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v);
const falsy = (v: string | undefined) => v !== undefined && /^(0|false|no|off)$/i.test(v);

export function deployOptionsFromEnv(env: Record<string, string | undefined>): DeployOptions {
  const redistributableOnly = truthy(env.MEMLENS_REDISTRIBUTABLE_ONLY);
  const allowUpstream =
    truthy(env.MEMLENS_ALLOW_UPSTREAM) ||
    (redistributableOnly && !falsy(env.MEMLENS_ALLOW_UPSTREAM));
  const maxMb = Number(env.MEMLENS_MAX_FILE_MB);
  const maxModelFileBytes = Number.isFinite(maxMb) && maxMb > 0 ? maxMb * 1024 * 1024 : null;
  return {
    redistributableOnly,
    allowUpstream,
    coi: env.MEMLENS_COI === 'sw',
    maxModelFileBytes,
    siteVectors: !falsy(env.MEMLENS_SITE_VECTORS),
  };
}

/** Model weights over the size limit: `models/<id>/<file>` paths, as the build lists them. */
export function oversizedModelFiles(
  files: readonly { path: string; bytes: number }[],
  maxBytes: number | null,
): string[] {
  if (maxBytes === null) return [];
  return files.filter((f) => f.path.startsWith('models/') && f.bytes > maxBytes).map((f) => f.path);
}

/** Files the deployed site must not serve itself. */
export function unbundledSources(sources: readonly SourceFile[]): SourceFile[] {
  return sources.filter((s) => !s.redistributable);
}

/** Their site paths, as sources.ts `sitePathOf` builds them. */
export function unbundledPaths(sources: readonly SourceFile[]): string[] {
  return unbundledSources(sources).map((s) => `data/${s.dataset}/${s.file}`);
}

/** The site's `data/index.json` once the unbundled files are gone. */
export function indexWithout(
  index: { files?: unknown },
  sources: readonly SourceFile[],
): { files: string[] } {
  const removed = new Set(unbundledSources(sources).map((s) => s.id));
  const files = Array.isArray(index.files) ? index.files.map(String) : [];
  return { files: files.filter((id) => !removed.has(id)) };
}

/** Upstream URLs the service worker may keep: each pins a commit, so it never changes. */
export function upstreamUrls(sources: readonly SourceFile[]): string[] {
  return sources.flatMap((s) => (s.url ? [s.url] : []));
}
