import { listModelSpecs } from '../../lib/embed/model-registry.ts';
import { missingSiteFiles } from '../../lib/embed/model-location.ts';
import { loadSiteManifest, missingFromManifest } from '../../lib/offline/site-files.ts';

/**
 * Which registered models the site serves (every file of their default dtype under
 * `models/<id>/`), asked once per page so a missing model is named at once instead of after a
 * failed load. The build's file list answers without probing; without one (dev server) each
 * file gets a HEAD request. The Reproduce page never downloads from the Hub.
 */
export async function siteModels(
  siteBase: string = document.baseURI,
): Promise<Map<string, boolean>> {
  const specs = listModelSpecs();
  const manifest = await loadSiteManifest(siteBase);
  const missing = await Promise.all(
    specs.map((s) =>
      manifest
        ? missingFromManifest(manifest, s, s.dtypes[0])
        : missingSiteFiles(s, s.dtypes[0], siteBase).catch(() => ['?']),
    ),
  );
  return new Map(specs.map((s, i) => [s.id, missing[i].length === 0]));
}
