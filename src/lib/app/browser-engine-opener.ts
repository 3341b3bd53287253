import { openBrowserEngine } from '../db/browser-engine.ts';
import type { WatchedEngine } from '../db/watchdog.ts';

/** How the shell opens DuckDB in the browser: in a watched worker, evicting bad cached bundles. */
export function browserEngineOpener(
  evict: (urls: readonly string[]) => Promise<void>,
): (onDead: (reason: string) => void) => Promise<WatchedEngine> {
  return (onDead) => openBrowserEngine({ onDead, evict });
}
