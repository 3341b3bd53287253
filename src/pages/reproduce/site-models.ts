import { listModelSpecs } from '../../lib/embed/model-registry.ts';
import { missingSiteFiles } from '../../lib/embed/model-location.ts';

/**
 * Which registered models the site serves (every file of their default dtype under
 * `models/<id>/`), asked once per page with HEAD requests so a missing model is named at once
 * instead of after a failed load. The Reproduce page never downloads from the Hub.
 */
export async function siteModels(
  siteBase: string = document.baseURI,
): Promise<Map<string, boolean>> {
  const specs = listModelSpecs();
  const missing = await Promise.all(
    specs.map((s) => missingSiteFiles(s, s.dtypes[0], siteBase).catch(() => ['?'])),
  );
  return new Map(specs.map((s, i) => [s.id, missing[i].length === 0]));
}
