// One file from the Hugging Face Hub at a pinned commit, as its resolve endpoint answers: small
// files come back 200 from the Hub itself; LFS files come back 302 to a CDN host, with
// `x-repo-commit` (the commit the revision resolved to), `x-linked-etag` (the LFS object's sha256)
// and `x-linked-size`. Redirects are followed by hand so that no request leaves the Hub's own
// hosts, and every header that can refuse a wrong file early is read before the body.
import { sha256Hex } from '../../src/lib/common/sha256.ts';

export const DEFAULT_HUB = 'https://huggingface.co';

/** The Hub did not answer (no route, DNS, timeout, 5xx): the caller may take another source. */
export class HubUnreachable extends Error {
  override name = 'HubUnreachable';
}

/** The Hub answered, but not with the pinned file: never kept, never retried elsewhere silently. */
export class HubRefused extends Error {
  override name = 'HubRefused';
}

/** The Hub answered 404: the repository has no such file at that commit. */
export class HubNotFound extends HubRefused {
  override name = 'HubNotFound';
}

export interface HubFileRequest {
  /** Base URL of the Hub, `https://huggingface.co` or a local stand-in. */
  hub: string;
  repo: string;
  revision: string;
  path: string;
  /** How messages name the file, e.g. `bge-small/onnx/model.onnx`. */
  label: string;
  /** The bytes' sha256; null: not known yet (a brought model's first download records it). */
  sha256: string | null;
  /** What the expected digest comes from, in messages (default data/models.json). */
  pinnedBy?: string;
  bytes?: number;
  timeoutMs?: number;
}

export function hubFileUrl(hub: string, repo: string, revision: string, file: string): string {
  const base = hub.replace(/\/+$/, '');
  return `${base}/${repo}/resolve/${encodeURIComponent(revision)}/${file}`;
}

/** The hosts a download may be redirected to: the Hub's own, and on the real Hub its CDNs. */
export function allowedRedirect(hub: string, target: URL): boolean {
  const base = new URL(hub);
  if (target.host === base.host && target.protocol === base.protocol) return true;
  if (base.hostname !== 'huggingface.co' || target.protocol !== 'https:') return false;
  const host = target.hostname;
  return host.endsWith('.huggingface.co') || host === 'hf.co' || host.endsWith('.hf.co');
}

const unquote = (etag: string) => etag.replace(/^W\//, '').replace(/^"|"$/g, '');

function checkHeaders(req: HubFileRequest, res: Response, url: string): void {
  const commit = res.headers.get('x-repo-commit');
  if (commit && commit !== req.revision) {
    throw new HubRefused(
      `${req.label}: the Hub resolved ${req.revision} to commit ${commit} (${url}); refused`,
    );
  }
  const linked = res.headers.get('x-linked-etag');
  const pinnedBy = req.pinnedBy ?? 'data/models.json';
  const announced = linked && unquote(linked);
  if (announced && req.sha256 && /^[0-9a-f]{64}$/.test(announced) && announced !== req.sha256) {
    throw new HubRefused(
      `${req.label}: sha256 ${announced} announced by ${url} (x-linked-etag), ${pinnedBy} says ${req.sha256}; refused`,
    );
  }
  const size = res.headers.get('x-linked-size');
  if (size && req.bytes !== undefined && Number(size) !== req.bytes) {
    throw new HubRefused(
      `${req.label}: ${size} bytes announced by ${url} (x-linked-size), ${pinnedBy} says ${req.bytes}; refused`,
    );
  }
}

/** A failure on the first request means no Hub; after the Hub answered, a broken download. */
async function get(req: HubFileRequest, url: string, hop: number): Promise<Response> {
  try {
    return await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(req.timeoutMs ?? 300_000),
    });
  } catch (err) {
    const cause =
      err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    if (hop > 0) {
      throw new HubRefused(
        `${req.label}: the download from ${url} broke off (${String(err)}${cause}); refused`,
      );
    }
    throw new HubUnreachable(`${url} unreachable (${String(err)}${cause})`);
  }
}

async function body(req: HubFileRequest, res: Response, url: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    throw new HubRefused(`${req.label}: the body from ${url} broke off (${String(err)}); refused`);
  }
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) !== bytes.length) {
    throw new HubRefused(
      `${req.label}: ${bytes.length} of ${length} bytes from ${url} (truncated); refused`,
    );
  }
  return bytes;
}

function verify(req: HubFileRequest, bytes: Uint8Array, actual: string, url: string): void {
  if (req.sha256 !== null && actual !== req.sha256) {
    const size =
      req.bytes !== undefined && bytes.length !== req.bytes
        ? ` (${bytes.length} bytes, expected ${req.bytes}: ${bytes.length < req.bytes ? 'truncated' : 'too long'})`
        : '';
    throw new HubRefused(
      `${req.label}: sha256 ${actual} from ${url}, ${req.pinnedBy ?? 'data/models.json'} says ${req.sha256}${size}; refused`,
    );
  }
}

/** The pinned file's bytes, checked against its sha256 (and size), or a HubUnreachable/HubRefused. */
export async function downloadHubFile(
  req: HubFileRequest,
): Promise<{ bytes: Uint8Array; url: string }> {
  const first = hubFileUrl(req.hub, req.repo, req.revision, req.path);
  let url = first;
  for (let hop = 0; hop <= 5; hop++) {
    const res = await get(req, url, hop);
    checkHeaders(req, res, url);
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location');
      if (!location)
        throw new HubRefused(`${req.label}: ${res.status} without a location at ${url}`);
      const next = new URL(location, url);
      if (!allowedRedirect(req.hub, next)) {
        throw new HubRefused(
          `${req.label}: ${url} redirects to ${next.host}, not a Hub host; refused`,
        );
      }
      await res.body?.cancel();
      url = next.href;
      continue;
    }
    if (res.status >= 500) throw new HubUnreachable(`${url} answered ${res.status}`);
    if (res.status === 404) throw new HubNotFound(`${req.label}: ${url} answered 404`);
    if (res.status !== 200) throw new HubRefused(`${req.label}: ${url} answered ${res.status}`);
    const bytes = await body(req, res, url);
    verify(req, bytes, await sha256Hex(bytes), url);
    return { bytes, url };
  }
  throw new HubRefused(`${req.label}: more than 5 redirects from ${first}`);
}
