import { blobSource, type ByteSource } from '../../../lib/userdata/byte-source.ts';
import { formatBytes } from '../../../lib/common/format-bytes.ts';
import { READER_DOWNLOAD_HEADER } from '../../../lib/offline/routes.ts';
import { errorMessage } from '../../../lib/common/error-message.ts';
import { connectAllowed, describeSources } from '../../../lib/offline/csp.ts';
import { StallWatch } from '../../../lib/common/stall-watch.ts';

/** A download that sends no byte for this long (headers included) is stopped with a message. */
export const STALL_SECONDS = 15;

/** A URL download stops here: an endless or huge answer must not fill the tab's memory. */
export const MAX_URL_BYTES = 256 * 1024 * 1024;
const BLOB_STEP = 8 * 1024 * 1024;

export interface UrlTarget {
  href: string;
  /** Same origin as the site: nothing leaves the server the site came from. */
  sameOrigin: boolean;
  siteOrigin: string;
  name: string;
}

/** Resolves what the reader typed against the page; only http(s) is fetched. */
export function resolveUrl(input: string, base: string): UrlTarget {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    throw new Error(`"${input}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${url.href}: only http and https URLs can be fetched`);
  }
  const segment = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
  return {
    href: url.href,
    sameOrigin: url.origin === new URL(base).origin,
    siteOrigin: new URL(base).origin,
    name: segment || url.hostname,
  };
}

export interface FetchUrlOptions {
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
  /** `total` is the announced size, else null. */
  onBytes?: (read: number, total: number | null) => void;
  maxBytes?: number;
  /** The page's `connect-src` sources (csp.ts), to say when the policy blocks a URL; null: none. */
  connectSources?: readonly string[] | null;
  stallMs?: number;
}

function stalled(target: UrlTarget, seconds: number, read: number): Error {
  const what = read === 0 ? 'no answer' : `no byte after the first ${formatBytes(read)}`;
  return new Error(
    `${target.href}: ${what} for ${seconds} s, so the download was stopped; the server stalled: try again later, or download the file and pick it`,
  );
}

function blockedMessage(target: UrlTarget, sources: readonly string[] | null | undefined) {
  if (!sources || target.sameOrigin || connectAllowed(sources, target.href, target.siteOrigin)) {
    return null;
  }
  const allowed = describeSources(sources, target.siteOrigin);
  return `${target.href}: blocked by this site's Content-Security-Policy, which lets the page fetch only from ${allowed}; download the file and pick it instead`;
}

function tooLarge(target: UrlTarget, max: number, what: string): Error {
  return new Error(
    `${target.href}: ${what}; files fetched by URL are limited to ${formatBytes(max)}: download it and pick the file instead`,
  );
}

/** Downloads into a Blob (never one big string), which is then read like a picked file. */
export async function fetchUrlSource(
  target: UrlTarget,
  options: FetchUrlOptions = {},
): Promise<ByteSource> {
  const doFetch = options.fetchImpl ?? fetch;
  const stallMs = options.stallMs ?? STALL_SECONDS * 1000;
  let read = 0;
  const watch = new StallWatch(
    stallMs,
    () => stalled(target, stallMs / 1000, read),
    options.signal,
  );
  let response: Response;
  try {
    response = await watch.step(
      doFetch(target.href, {
        signal: watch.controller.signal,
        credentials: 'omit',
        // A reader's download is theirs: no cache (the service worker's included) keeps a copy.
        // The marker header goes to the site only: on another origin it would need a preflight.
        cache: 'no-store',
        headers: target.sameOrigin ? { [READER_DOWNLOAD_HEADER]: '1' } : undefined,
      }),
    );
  } catch (err) {
    if (watch.stalled || options.signal?.aborted) throw err;
    const blocked = blockedMessage(target, options.connectSources);
    if (blocked) throw new Error(blocked);
    const why = errorMessage(err);
    throw new Error(
      `${target.href}: could not fetch (${why}); a remote server must allow cross-origin requests (CORS)`,
    );
  }
  if (!response.ok || !response.body) {
    throw new Error(`${target.href}: HTTP ${response.status}`);
  }
  const max = options.maxBytes ?? MAX_URL_BYTES;
  const total = Number(response.headers.get('content-length')) || null;
  if (total !== null && total > max) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge(target, max, `the server announces ${formatBytes(total)}`);
  }
  // Chunks are moved into Blobs every few MiB, which the browser may keep outside the tab's heap.
  const blobs: Blob[] = [];
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let partBytes = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await watch.step(reader.read());
      if (done) break;
      read += value.length;
      if (read > max) throw tooLarge(target, max, `stopped after ${formatBytes(max)}`);
      parts.push(value);
      partBytes += value.length;
      if (partBytes >= BLOB_STEP) {
        blobs.push(new Blob(parts));
        parts = [];
        partBytes = 0;
      }
      options.onBytes?.(read, total);
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  }
  return blobSource(target.name, new Blob([...blobs, ...parts]));
}
