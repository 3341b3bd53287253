// The Playground's composition root: its session, made from the app's services.
import type { SiteModels } from '../../lib/embed/site-models.ts';
import { PlaygroundSession } from './core/session.ts';
import { whenBackOnline } from '../../lib/app/back-online.ts';
import { sitePacks, type SiteServices } from '../../lib/app/site-packs.ts';

/** Where the browser says the network came back (the window). */
type OnlineEvents = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/** Ranks typed texts among the background turns; retries a failed model when back online. */
export function playgroundSession(
  services: SiteServices,
  siteModels: Promise<SiteModels>,
  network: OnlineEvents = globalThis,
): PlaygroundSession {
  return new PlaygroundSession({
    hub: services.hub,
    siteModels,
    sitePacks: sitePacks(services),
    backOnline: (retry) => whenBackOnline(retry, network),
  });
}
