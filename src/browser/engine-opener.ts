import type { WatchedEngine } from '../lib/db/watchdog.ts';
import { buildDigests } from '../lib/offline/checked-assets.ts';
import { DUCKDB_BUNDLES } from './duckdb-bundles.ts';

/**
 * How the shell opens DuckDB in the browser: in a watched worker, evicting bad cached bundles.
 * DuckDB's client (with Apache Arrow, ~180 KiB raw) is a chunk of its own, fetched when the
 * shell starts the engine: the first chart draws from the snapshot without it.
 */
export function browserEngineOpener(
  evict: (urls: readonly string[]) => Promise<void>,
): (onDead: (reason: string) => void) => Promise<WatchedEngine> {
  return async (onDead) => {
    // The build's digests, which the worker's check needs, are read while the client loads.
    buildDigests(document.baseURI).catch(() => undefined);
    const { openBrowserEngine } = await import('../lib/db/browser-engine.ts');
    return openBrowserEngine({ bundles: DUCKDB_BUNDLES, onDead, evict });
  };
}
