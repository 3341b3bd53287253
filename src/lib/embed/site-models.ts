// Which models and dtypes this site serves, decided once per page load: from the build's own
// file list (precache-manifest.json) when there is one, else by HEAD requests for each file.
// Pages mark the rest "not on this site" at once instead of failing a load half a minute later.
import {
  filesForDtype,
  listModelSpecs,
  type ModelDtype,
  type ModelSpec,
} from './model-registry.ts';
import { missingSiteFiles } from './model-location.ts';
import { loadSiteManifest } from '../offline/site-files.ts';
import type { PrecacheManifest } from '../offline/precache.ts';

export interface ServedModel {
  spec: ModelSpec;
  /** The dtypes whose every file the site serves, in registry order; empty: not on this site. */
  dtypes: ModelDtype[];
}

export type SiteModels = ReadonlyMap<string, ServedModel>;

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

export async function loadSiteModels(
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
  specs: readonly ModelSpec[] = listModelSpecs(),
): Promise<SiteModels> {
  const manifest = await loadSiteManifest(siteBase, fetchImpl);
  const missing = (spec: ModelSpec, dtype: ModelDtype) =>
    manifest
      ? Promise.resolve(missingFromManifest(manifest, spec, dtype))
      : missingSiteFiles(spec, dtype, siteBase, fetchImpl);
  const served = await Promise.all(
    specs.map(async (spec) => {
      const gaps = await Promise.all(spec.dtypes.map((dtype) => missing(spec, dtype)));
      return { spec, dtypes: spec.dtypes.filter((_, i) => gaps[i].length === 0) };
    }),
  );
  return new Map(served.map((s) => [s.spec.id, s]));
}

export function isServed(models: SiteModels, id: string, dtype?: ModelDtype): boolean {
  const served = models.get(id);
  return !!served && (dtype ? served.dtypes.includes(dtype) : served.dtypes.length > 0);
}

/** The label a picker shows: the model's name, and what is missing when the site lacks it. */
export function servedLabel(models: SiteModels, spec: ModelSpec, allowRemote = false): string {
  if (isServed(models, spec.id)) return spec.label;
  return `${spec.label} — not on this site${allowRemote && spec.hub ? ' (Hub download)' : ''}`;
}

/**
 * The model a page starts with: the preferred one when the site serves it, else the first real
 * model served, else the test model. Never one the site lacks.
 */
export function defaultServedModel(models: SiteModels, preferred: readonly string[]): string {
  const order = [...preferred, 'minilm', 'bge-small', 'tiny-bert'];
  return order.find((id) => isServed(models, id)) ?? 'tiny-bert';
}

/** The served dtype closest to the request: itself when served, else the first served one. */
export function servedDtype(models: SiteModels, id: string, wanted: ModelDtype): ModelDtype | null {
  const dtypes = models.get(id)?.dtypes ?? [];
  return dtypes.includes(wanted) ? wanted : (dtypes[0] ?? null);
}

/**
 * The dtype every page embeds a model in (Reproduce, the Playground, Embeddings by default):
 * fp32 where served, as the papers ran, so one page's vectors are the others' cache hits.
 */
export const PAGE_DTYPE: ModelDtype = 'fp32';

export function pageDtype(models: SiteModels, id: string): ModelDtype | null {
  return servedDtype(models, id, PAGE_DTYPE);
}
