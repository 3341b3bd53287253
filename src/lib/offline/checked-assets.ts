// The files the page runs outside its import map's reach (DuckDB's worker and wasm, the embedding
// and map workers, ONNX Runtime's wasm) are checked against the build's sha256 before they run,
// first visit included: fetched, hashed, and only then handed over as bytes or a blob: URL.
import { errorMessage } from '../common/error-message.ts';
import { formatBytes } from '../common/format-bytes.ts';
import { sha256Hex } from '../common/sha256.ts';
import { IS_BUILD } from './build-flags.ts';
import { MANIFEST_FILE } from './precache.ts';
import { loadSiteManifest } from './site-files.ts';

/** A file whose bytes are not the ones this build lists: reported before any of it runs. */
export class AssetIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssetIntegrityError';
  }
}

/** This build's sha256 per absolute URL; `built` false under the dev server (nothing to check). */
export interface BuildDigests {
  built: boolean;
  byUrl: ReadonlyMap<string, string>;
}

export const fileName = (url: string): string => url.split('/').pop()?.split('?')[0] ?? url;

/**
 * The digests of `precache-manifest.json`. A build that cannot read its manifest fails here: its
 * files would otherwise run unchecked.
 */
export async function loadBuildDigests(
  base: string,
  built: boolean = IS_BUILD,
  fetchImpl: typeof fetch = fetch,
): Promise<BuildDigests> {
  const manifest = await loadSiteManifest(base, fetchImpl);
  if (!manifest && built) {
    throw new AssetIntegrityError(
      `${MANIFEST_FILE} could not be read, so this build's scripts and wasm cannot be checked: reload the page`,
    );
  }
  const entries = [...(manifest?.precache ?? []), ...(manifest?.fallback ?? [])];
  return {
    built: manifest !== null,
    byUrl: new Map(entries.map((e) => [new URL(e.url, base).href, e.sha256])),
  };
}

let shared: { base: string; digests: Promise<BuildDigests> } | null = null;

/** Read once per page; a failed read is tried again by the next caller. */
export function buildDigests(base: string): Promise<BuildDigests> {
  if (shared?.base !== base) {
    const digests = loadBuildDigests(base);
    shared = { base, digests };
    digests.catch(() => {
      if (shared?.digests === digests) shared = null;
    });
  }
  return shared.digests;
}

/** The sha256 `href` must have; null when this is not a build; throws when a build lacks it. */
export function expectedDigest(digests: BuildDigests, href: string): string | null {
  if (!digests.built) return null;
  const expected = digests.byUrl.get(href);
  if (!expected) {
    throw new AssetIntegrityError(
      `${fileName(href)}: not listed in this build's ${MANIFEST_FILE}, so it is not run`,
    );
  }
  return expected;
}

/** The bytes of `href` when they hash to `expected`; an AssetIntegrityError naming it otherwise. */
export async function checkedBytes(
  href: string,
  expected: string,
  opts: { reload?: boolean; fetchImpl?: typeof fetch } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  let res: Response;
  try {
    res = await fetchImpl(href, opts.reload ? { cache: 'reload' } : undefined);
  } catch (err) {
    throw new AssetIntegrityError(`${fileName(href)}: ${errorMessage(err)}`);
  }
  if (!res.ok) throw new AssetIntegrityError(`${fileName(href)}: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const got = await sha256Hex(bytes);
  if (got !== expected) {
    throw new AssetIntegrityError(
      `${fileName(href)}: ${formatBytes(bytes.length)} whose sha256 is ${got.slice(0, 12)}…, not this build's ${expected.slice(0, 12)}… (truncated or altered on the way or in a cache)`,
    );
  }
  return bytes;
}

/**
 * `checkedBytes`, and when the first copy fails, once more past every cache after `evict` drops
 * it from the service worker's: a stale copy heals itself, a bad server is reported.
 */
export async function checkedBytesHealing(
  href: string,
  expected: string,
  evict?: (urls: string[]) => Promise<void>,
  fetchImpl?: typeof fetch,
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await checkedBytes(href, expected, { fetchImpl });
  } catch (err) {
    if (!(err instanceof AssetIntegrityError)) throw err;
    await evict?.([href]).catch(() => undefined);
    return checkedBytes(href, expected, { reload: true, fetchImpl });
  }
}

const checkedScripts = new Map<string, Promise<string>>();

/**
 * A module worker running exactly the checked bytes of `url`, from a blob: URL kept for the page's
 * lifetime (ONNX Runtime starts its threads from the worker's own URL), shared by later workers.
 * Under the dev server (no manifest) the URL itself. A mismatch rejects, naming the file.
 */
export async function checkedModuleWorker(
  url: string,
  name: string,
  base: string = document.baseURI,
): Promise<Worker> {
  const href = new URL(url, base).href;
  const expected = expectedDigest(await buildDigests(base), href);
  if (!expected) return new Worker(href, { type: 'module', name });
  let script = checkedScripts.get(href);
  if (!script) {
    script = checkedBytesHealing(href, expected).then((bytes) =>
      URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' })),
    );
    checkedScripts.set(href, script);
    script.catch(() => checkedScripts.delete(href));
  }
  return new Worker(await script, { type: 'module', name });
}
