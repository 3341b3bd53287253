import { openBrowserEngine } from '../lib/db/browser-engine.ts';
import type { WatchedEngine } from '../lib/db/watchdog.ts';
import { DUCKDB_BUNDLES } from './duckdb-bundles.ts';

/** How the shell opens DuckDB in the browser: in a watched worker, evicting bad cached bundles. */
export function browserEngineOpener(
  evict: (urls: readonly string[]) => Promise<void>,
): (onDead: (reason: string) => void) => Promise<WatchedEngine> {
  return (onDead) => openBrowserEngine({ bundles: DUCKDB_BUNDLES, onDead, evict });
}
