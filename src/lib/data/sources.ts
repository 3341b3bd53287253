import sourcesJson from '../../../data/sources.json';

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

export function toHex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export class ChecksumError extends Error {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${file}: sha256 mismatch: expected ${expected}, got ${actual}`);
    this.name = 'ChecksumError';
  }
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(digest);
}

/** Throws a ChecksumError naming `label` when the bytes do not match the manifest. */
export async function verifySource(
  source: SourceFile,
  bytes: Uint8Array,
  label: string,
): Promise<void> {
  if (source.sha256 === null) return;
  const actual = await sha256Hex(bytes);
  if (actual !== source.sha256) throw new ChecksumError(label, source.sha256, actual);
}
