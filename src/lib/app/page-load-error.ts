// A lazily loaded part of the page that did not arrive: the browser says only "Failed to fetch
// dynamically imported module"; the reader is told which part, the likely causes and the fix.

/** Chromium's, Firefox's and Safari's words for an import() whose module failed to load. */
const CHUNK_FAILED =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i;

/** What to say when `part` (e.g. "The Console page") could not be loaded. */
export function partLoadMessage(part: string, err: unknown): string {
  const detail = err instanceof Error ? err.message : String(err);
  if (!CHUNK_FAILED.test(detail)) return `${part} could not be loaded: ${detail}`;
  return `${part} could not be loaded: its code did not arrive intact. The site may have been updated since this tab opened, or the download was corrupted; reload to fetch it again.`;
}
