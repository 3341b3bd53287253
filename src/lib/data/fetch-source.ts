import { SITE_INDEX_FILE, sitePathOf, verifySource, type SourceFile } from './sources.ts';

export interface FetchOptions {
  /** Base URL of the site (document.baseURI in the browser). */
  siteBase: string;
  /** Whether the pinned upstream URL may be used when the site does not serve the file. */
  allowUpstream: boolean;
  fetchImpl?: typeof fetch;
  /** Source ids the site serves (its `data/index.json`); unknown means: try the site. */
  siteFiles?: ReadonlySet<string>;
}

/** Reads the site's data index; a site without one is treated as serving nothing listed. */
export async function loadSiteIndex(
  siteBase: string,
  fetchImpl: typeof fetch = fetch,
): Promise<Set<string>> {
  const res = await fetchImpl(new URL(`data/${SITE_INDEX_FILE}`, siteBase).href);
  if (!res.ok) return new Set();
  const json = (await res.json()) as { files?: unknown };
  return new Set(Array.isArray(json.files) ? json.files.map(String) : []);
}

export class SourceUnavailableError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'SourceUnavailableError';
  }
}

export interface FetchedSource {
  source: SourceFile;
  text: string;
  from: 'site' | 'upstream';
  url: string;
}

/** Fetches a manifest file from the site, else from its pinned upstream URL; sha256 is always checked. */
export async function fetchSourceText(
  source: SourceFile,
  opts: FetchOptions,
): Promise<FetchedSource> {
  const doFetch = opts.fetchImpl ?? fetch;
  const siteUrl = new URL(sitePathOf(source), opts.siteBase).href;
  const attempts: string[] = [];
  const candidates: { url: string; from: 'site' | 'upstream' }[] = [];
  if (!opts.siteFiles || opts.siteFiles.has(source.id))
    candidates.push({ url: siteUrl, from: 'site' });
  else attempts.push(`${siteUrl}: not served by this site`);
  if (opts.allowUpstream && source.url) candidates.push({ url: source.url, from: 'upstream' });
  for (const c of candidates) {
    let bytes: Uint8Array;
    try {
      const res = await doFetch(c.url);
      if (!res.ok) {
        attempts.push(`${c.url}: HTTP ${res.status}`);
        continue;
      }
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      attempts.push(`${c.url}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    await verifySource(source, bytes, `${source.dataset}/${source.file}`);
    return { source, text: new TextDecoder('utf-8').decode(bytes), from: c.from, url: c.url };
  }
  const hint = opts.allowUpstream ? '' : ' (remote loading is off)';
  throw new SourceUnavailableError(
    `${source.dataset}/${source.file}`,
    `not available${hint}: ${attempts.join('; ')}`,
  );
}
