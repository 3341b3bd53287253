// The build's own file list (`precache-manifest.json`) tells the page which models this site
// serves, so nothing is probed for files that are not there (embed/site-models.ts reads it).
import { MANIFEST_FILE, type PrecacheManifest } from './precache.ts';

export async function loadSiteManifest(
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
): Promise<PrecacheManifest | null> {
  try {
    const res = await fetchImpl(new URL(MANIFEST_FILE, siteBase).href);
    if (!res.ok) return null;
    const json = (await res.json()) as Partial<PrecacheManifest>;
    return Array.isArray(json.models) && Array.isArray(json.precache)
      ? (json as PrecacheManifest)
      : null;
  } catch {
    return null;
  }
}
