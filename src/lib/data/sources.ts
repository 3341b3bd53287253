import sourcesJson from '../../../data/sources.json' with { type: 'json' };
import { verifyBytes } from './integrity.ts';

export interface SourceFile {
  id: string;
  dataset: string;
  file: string;
  /** Where the file sits in a local mirror, relative to its root; defaults to `<dataset>/<file>`. */
  mirrorPath?: string;
  format: 'json' | 'jsonl' | 'csv';
  repo: string;
  commit: string;
  path: string;
  url: string | null;
  sha256: string | null;
  bytes: number | null;
  licence: string;
  redistributable: boolean;
  required: boolean;
  unverified?: string;
  excerptOf?: string;
  citation: string;
}

export const SOURCES: readonly SourceFile[] = (sourcesJson as { files: SourceFile[] }).files;

export function sourceById(id: string): SourceFile {
  const found = SOURCES.find((s) => s.id === id);
  if (!found) throw new Error(`unknown data source "${id}" (data/sources.json)`);
  return found;
}

export function mirrorPathOf(source: SourceFile): string {
  return source.mirrorPath ?? `${source.dataset}/${source.file}`;
}

/** Written by `npm run data` into the site's `data/` folder: `{ files: [source ids] }`. */
export const SITE_INDEX_FILE = 'index.json';

/** Path of the file under the site's own `data/` folder. */
export function sitePathOf(source: SourceFile): string {
  return `data/${source.dataset}/${source.file}`;
}

export { ChecksumError } from './integrity.ts';

/** Throws, naming `label`, when the bytes are not the file the manifest pins (or are an HTML page). */
export async function verifySource(
  source: SourceFile,
  bytes: Uint8Array,
  label: string,
  contentType: string | null = null,
): Promise<void> {
  const pin = { sha256: source.sha256 ?? undefined, bytes: source.bytes ?? undefined };
  await verifyBytes(label, pin, bytes, contentType);
}
