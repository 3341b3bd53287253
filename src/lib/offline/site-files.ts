// The build's own file list (`precache-manifest.json`) tells the page which models this site
// serves, so nothing is probed for files that are not there.
import type { ModelDtype, ModelSpec } from '../embed/model-registry.ts';
import { filesForDtype } from '../embed/model-registry.ts';
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

/** The files of `dtype` the manifest does not list under `models/<id>/`. */
export function missingFromManifest(
  manifest: Pick<PrecacheManifest, 'models'>,
  spec: ModelSpec,
  dtype: ModelDtype,
): string[] {
  const listed = manifest.models.find((m) => m.id === spec.id);
  const urls = new Set(listed?.files.map((f) => f.url) ?? []);
  const prefix = `models/${encodeURIComponent(spec.id)}/`;
  return filesForDtype(spec, dtype)
    .map((f) => f.path)
    .filter((p) => !urls.has(prefix + p.split('/').map(encodeURIComponent).join('/')));
}
