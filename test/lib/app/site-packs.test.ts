import { describe, expect, it } from 'vitest';
import { servedDtypes, sitePacks } from '../../../src/lib/app/site-packs.ts';
import { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';

const hub = new EmbedderHub({
  openStore: () => Promise.reject(new Error('no store here')),
  create: () => Promise.reject(new Error('no model here')),
});

describe('the site services every feature reads', () => {
  it('reads the site packs once per tab: every feature of one app shares one reader', () => {
    const services = { siteBase: 'http://127.0.0.1:9/memlens/', hub };
    const other = { siteBase: 'http://127.0.0.1:9/memlens/', hub };
    expect(sitePacks(services)).toBe(sitePacks(services));
    expect(sitePacks(other)).not.toBe(sitePacks(services));
  });

  it('serves no model in any dtype where the site cannot say which it serves', async () => {
    // Port 9 (discard) refuses: the page then offers BM25 only, as before its list arrives.
    const served = await servedDtypes({ siteBase: 'http://127.0.0.1:9/memlens/', hub });
    expect([...served.values()].flat()).toEqual([]);
  });
});
