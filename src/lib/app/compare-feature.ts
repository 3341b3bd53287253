// The comparison's composition root (Reproduce with `cmp`): its run and the Hub models the
// reader adds, made from the app's services.
import { HubSession } from '../embed/hub-session.ts';
import { pageHubUrl, type HubLoaded } from '../embed/hub-model.ts';
import { IndexedDbHubStore } from '../embed/hub-model-idb.ts';
import { CompareRun, compareCompute } from '../protocols/compare-run.ts';
import type { QueryRunner } from '../query/query-client.ts';
import type { RestoreStatus } from '../userdata/persist.ts';
import type { PickedPacks } from '../vectors/pack-model.ts';
import { sitePacks, type ServedDtypes, type SiteServices } from './site-packs.ts';

export interface CompareServices extends SiteServices {
  /** Which kept tables could not be restored, and why. */
  readonly restore: Pick<RestoreStatus, 'failed'>;
}

/** What to load again for a `sub:` table that is not here, with why it did not come back. */
export function lostTableAdvice(services: CompareServices, table: string): string {
  const failed = services.restore.failed.find((f) => f.table === table);
  const why = failed ? ` It could not be restored: ${failed.message}` : '';
  return `Load the InMind submission file that made ${table} again on Your data (#/mydata); a table this browser did not keep, or one removed, is gone after a reload.${why}`;
}

/** Retrievers side by side: served models, the site's packs and the packs the reader picked. */
export function compareRun(
  services: CompareServices,
  served: Promise<ServedDtypes>,
  packs: PickedPacks,
): CompareRun<QueryRunner> {
  return new CompareRun(
    compareCompute({
      hub: services.hub,
      served,
      packs,
      sitePacks: sitePacks(services),
      missingTable: (table) => lostTableAdvice(services, table),
    }),
  );
}

/** Hub models the reader adds to a comparison, kept in this browser's IndexedDB. */
export function hubSession(
  services: SiteServices,
  onLoaded: (loaded: HubLoaded) => void,
): HubSession {
  return new HubSession(
    {
      hub: pageHubUrl(services.siteBase),
      store: new IndexedDbHubStore(indexedDB),
      fetch: (input, init) => fetch(input, init),
      origin: location.origin,
    },
    onLoaded,
  );
}
