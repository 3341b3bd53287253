import { blobSource, type ByteSource } from './byte-source.ts';

export interface UrlTarget {
  href: string;
  /** Same origin as the site: nothing leaves the server the site came from. */
  sameOrigin: boolean;
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
    name: segment || url.hostname,
  };
}

export interface FetchUrlOptions {
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
  onBytes?: (read: number, total: number | null) => void;
}

/** Downloads into a Blob (never one big string), which is then read like a picked file. */
export async function fetchUrlSource(
  target: UrlTarget,
  options: FetchUrlOptions = {},
): Promise<ByteSource> {
  const doFetch = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await doFetch(target.href, { signal: options.signal, credentials: 'omit' });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `${target.href}: could not fetch (${why}); a remote server must allow cross-origin requests (CORS)`,
    );
  }
  if (!response.ok || !response.body) {
    throw new Error(`${target.href}: HTTP ${response.status}`);
  }
  const total = Number(response.headers.get('content-length')) || null;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const reader = response.body.getReader();
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    read += value.length;
    options.onBytes?.(read, total);
  }
  return blobSource(target.name, new Blob(parts));
}
