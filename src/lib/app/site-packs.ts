// What every feature that embeds reads from the site: the models it serves and its vector packs.
import type { EmbedderHub } from '../embed/embedder-hub.ts';
import type { ModelDtype } from '../embed/model-registry.ts';
import { loadSiteModels } from '../embed/site-models.ts';
import { SitePacks } from '../vectors/site-packs.ts';

/** The part of the app's services a feature's run is made from. */
export interface SiteServices {
  readonly siteBase: string;
  readonly hub: EmbedderHub;
}

/** The dtypes of each model the site serves; none where its list cannot be read. */
export type ServedDtypes = ReadonlyMap<string, readonly ModelDtype[]>;

/** One reader of the site's packs per tab: a pack fetched and checked once serves every page. */
const packsOf = new WeakMap<SiteServices, SitePacks>();

export function sitePacks(services: SiteServices): SitePacks {
  let packs = packsOf.get(services);
  if (!packs) {
    packs = new SitePacks(services.siteBase);
    packsOf.set(services, packs);
  }
  return packs;
}

export function servedDtypes(services: SiteServices): Promise<ServedDtypes> {
  return loadSiteModels(services.siteBase)
    .then((m) => new Map([...m].map(([id, s]) => [id, s.dtypes] as const)))
    .catch(() => new Map<string, readonly ModelDtype[]>());
}
