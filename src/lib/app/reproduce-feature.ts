// Reproduce's composition root: its single view's run, made from the app's services.
import { ReproduceRun, protocolCompute } from '../protocols/reproduce-run.ts';
import type { QueryRunner } from '../query/query-client.ts';
import { sitePacks, type ServedDtypes, type SiteServices } from './site-packs.ts';

/** One protocol, one retriever, over the site's models and packs. */
export function reproduceRun(
  services: SiteServices,
  served: Promise<ServedDtypes>,
): ReproduceRun<QueryRunner> {
  return new ReproduceRun(
    protocolCompute({ hub: services.hub, served, packs: sitePacks(services) }),
  );
}
