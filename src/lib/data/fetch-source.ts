import { SITE_INDEX_FILE, sitePathOf, verifySource, type SourceFile } from './sources.ts';
import { ChecksumError, IntegrityError, pinnedUrl, verifyBytes, type Pin } from './integrity.ts';
import { errorMessage, FileError } from '../common/error-message.ts';

export interface FetchOptions {
  /** Base URL of the site (document.baseURI in the browser). */
  siteBase: string;
  /** Whether the pinned upstream URL may be used when the site does not serve the file. */
  allowUpstream: boolean;
  fetchImpl?: typeof fetch;
  /** Source ids the site serves (its `data/index.json`); unknown means: try the site. */
  siteFiles?: ReadonlySet<string>;
  /**
   * Drops a URL from every cache between here and the server (the service worker's), so a file
   * that failed verification is fetched afresh once before the failure is reported.
   */
  evict?: (url: string) => Promise<void>;
}

const SITE_INDEX_LABEL = `data/${SITE_INDEX_FILE}`;

/**
 * Reads the site's data index; a site without one is treated as serving nothing listed. An index
 * that is not the pinned one, not JSON or an HTML page throws an error naming the file.
 */
export async function loadSiteIndex(
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
  pin: Pin | null = null,
): Promise<Set<string>> {
  const url = pinnedUrl(new URL(SITE_INDEX_LABEL, siteBase).href, pin?.sha256);
  const res = await fetchImpl(url);
  if (!res.ok) return new Set();
  const bytes = new Uint8Array(await res.arrayBuffer());
  await verifyBytes(SITE_INDEX_LABEL, pin ?? {}, bytes, res.headers.get('content-type'));
  let json: { files?: unknown };
  try {
    json = JSON.parse(new TextDecoder('utf-8').decode(bytes)) as { files?: unknown };
  } catch (err) {
    const why = errorMessage(err);
    throw new IntegrityError(SITE_INDEX_LABEL, `not valid JSON (${why})`);
  }
  return new Set(Array.isArray(json.files) ? json.files.map(String) : []);
}

export class SourceUnavailableError extends FileError {
  override name = 'SourceUnavailableError';
}

export interface FetchedSource {
  source: SourceFile;
  text: string;
  from: 'site' | 'upstream';
  url: string;
}

const isIntegrity = (err: unknown) => err instanceof ChecksumError || err instanceof IntegrityError;

/**
 * Fetches `url` and checks it; on a failed check the URL is evicted and fetched once more past
 * every cache, so a corrupt copy kept by a cache heals as soon as the server is right again.
 */
export async function fetchVerified(
  url: string,
  check: (bytes: Uint8Array, contentType: string | null) => Promise<void>,
  opts: Pick<FetchOptions, 'fetchImpl' | 'evict'>,
): Promise<Uint8Array | { status: number }> {
  const doFetch = opts.fetchImpl ?? fetch;
  for (let attempt = 0; ; attempt++) {
    const res = await doFetch(url, attempt === 0 ? undefined : { cache: 'reload' });
    if (!res.ok) return { status: res.status };
    const bytes = new Uint8Array(await res.arrayBuffer());
    try {
      await check(bytes, res.headers.get('content-type'));
      return bytes;
    } catch (err) {
      if (attempt > 0 || !isIntegrity(err)) throw err;
      await opts.evict?.(url).catch(() => undefined);
    }
  }
}

/** Fetches a manifest file from the site, else from its pinned upstream URL; sha256 is always checked. */
export async function fetchSourceText(
  source: SourceFile,
  opts: FetchOptions,
): Promise<FetchedSource> {
  const label = `${source.dataset}/${source.file}`;
  // Asked for by content, so an older build's cached copy is never taken for this build's file.
  const siteUrl = pinnedUrl(new URL(sitePathOf(source), opts.siteBase).href, source.sha256);
  const attempts: string[] = [];
  const candidates: { url: string; from: 'site' | 'upstream' }[] = [];
  if (!opts.siteFiles || opts.siteFiles.has(source.id))
    candidates.push({ url: siteUrl, from: 'site' });
  else attempts.push(`${siteUrl}: not served by this site`);
  if (opts.allowUpstream && source.url) candidates.push({ url: source.url, from: 'upstream' });
  const check = (bytes: Uint8Array, type: string | null) =>
    verifySource(source, bytes, label, type);
  for (const c of candidates) {
    let got: Uint8Array | { status: number };
    try {
      got = await fetchVerified(c.url, check, opts);
    } catch (err) {
      if (isIntegrity(err)) throw err;
      attempts.push(`${c.url}: ${errorMessage(err)}`);
      continue;
    }
    if (!(got instanceof Uint8Array)) {
      attempts.push(`${c.url}: HTTP ${got.status}`);
      continue;
    }
    return { source, text: new TextDecoder('utf-8').decode(got), from: c.from, url: c.url };
  }
  const hint = opts.allowUpstream ? '' : ' (remote loading is off)';
  throw new SourceUnavailableError(label, `not available${hint}: ${attempts.join('; ')}`);
}
