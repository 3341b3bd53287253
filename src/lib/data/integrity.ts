// Checks fetched bytes against what the build pinned (size and sha256) and catches the commonest
// wrong answer, an HTML page (a host's 404 or SPA fallback) served for a data or wasm file.
// The service worker bundles this file too: it imports only the hash and the error base.
import { sha256Hex } from '../common/sha256.ts';
import { FileError } from '../common/error-message.ts';

export interface Pin {
  sha256: string;
  bytes: number;
}

export class ChecksumError extends Error {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
    note = '',
  ) {
    super(
      `${file}: sha256 mismatch: expected ${expected}, got ${actual}${note ? ` (${note})` : ''}`,
    );
    this.name = 'ChecksumError';
  }
}

/** A wrong answer that is not a hash mismatch: HTML for a non-HTML file, or the wrong size. */
export class IntegrityError extends FileError {
  override name = 'IntegrityError';
}

const HTML_START = /^\s*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

/** True when `path` is not an HTML file but the answer is one (by its type or its first bytes). */
export function looksLikeHtml(
  path: string,
  contentType: string | null,
  bytes: Uint8Array,
): boolean {
  const name = path.split(/[?#]/)[0].toLowerCase();
  if (name.endsWith('.html') || name.endsWith('.htm') || name.endsWith('/')) return false;
  if (contentType !== null && /^\s*text\/html\b/i.test(contentType)) return true;
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 256));
  return HTML_START.test(head.replace(/^\uFEFF/, ''));
}

/**
 * Why `bytes` are not the pinned file, or null when they are. Only the parts of the pin that are
 * known are checked; the HTML check always runs.
 */
export async function integrityProblem(
  file: string,
  pin: Partial<Pin>,
  bytes: Uint8Array,
  contentType: string | null = null,
): Promise<ChecksumError | IntegrityError | null> {
  if (looksLikeHtml(file, contentType, bytes)) {
    return new IntegrityError(file, 'the server answered with an HTML page instead of this file');
  }
  const sizeNote =
    pin.bytes === undefined || bytes.length === pin.bytes
      ? ''
      : `${bytes.length < pin.bytes ? 'truncated' : 'too long'}: expected ${pin.bytes} bytes, got ${bytes.length}`;
  if (pin.sha256 !== undefined) {
    const actual = await sha256Hex(bytes);
    if (actual !== pin.sha256) return new ChecksumError(file, pin.sha256, actual, sizeNote);
  }
  if (sizeNote) return new IntegrityError(file, sizeNote);
  return null;
}

/** Throws the problem `integrityProblem` finds. */
export async function verifyBytes(
  file: string,
  pin: Partial<Pin>,
  bytes: Uint8Array,
  contentType: string | null = null,
): Promise<void> {
  const problem = await integrityProblem(file, pin, bytes, contentType);
  if (problem) throw problem;
}

/** Query parameter that asks for a file by content: the service worker serves its copy only when the hashes agree. */
export const PIN_PARAM = 'sha256';

export function pinnedUrl(url: string, sha256: string | null | undefined): string {
  if (!sha256) return url;
  const u = new URL(url);
  u.searchParams.set(PIN_PARAM, sha256);
  return u.href;
}
