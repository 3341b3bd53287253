// A Hub model on the page: `owner/name@<commit>[:dtype]`, its transformers.js and
// sentence-transformers files downloaded (only once the reader agreed) into this browser, each
// file's sha256 recorded on first download (trust on first use) and any later copy with other
// bytes refused by name. The files then become a picked model, run as a picked ONNX folder is.
import {
  broughtBase,
  formatBroughtRef,
  loadBroughtModel,
  MODEL_FILES,
  ONNX_WEIGHTS,
  parseBroughtRef,
  poolingConfigPath,
  ST_MODULES,
  ST_OPTIONAL,
  type BroughtRef,
  type ModelFolder,
} from './brought-model.ts';
import type { ModelDtype } from './model-registry.ts';
import { rememberPicked, type PickedModel } from './picked-files.ts';
import { TEST_HOOKS } from './test-hooks.ts';
import { errorMessage } from '../common/error-message.ts';
import { sha256Hex } from '../common/sha256.ts';
import { READER_DOWNLOAD_HEADER } from '../offline/routes.ts';
import { joinBytes } from '../common/bytes.ts';

export type HubRef = Extract<BroughtRef, { kind: 'hub' }>;

export const PAGE_HUB = 'https://huggingface.co';

/** Where the page downloads from: the Hub; a test build's stand-in under the site (`<base>hub`). */
export function pageHubUrl(siteBase: string): string {
  return TEST_HOOKS ? new URL('./hub', siteBase).href : PAGE_HUB;
}

/** What the reader types: `owner/name@commit[:dtype]`, with or without `hub:`. */
export function parseHubInput(text: string): HubRef {
  const trimmed = text.trim();
  if (trimmed === '') throw new Error('type a Hub model as OWNER/NAME@COMMIT (a 40-hex commit)');
  const ref = parseBroughtRef(trimmed.startsWith('hub:') ? trimmed : `hub:${trimmed}`);
  if (ref?.kind !== 'hub') throw new Error(`"${trimmed.slice(0, 200)}" is not a Hub reference`);
  return ref;
}

/** The weights a reference loads: its dtype, else fp32 (as the CLI does). */
export const hubDtype = (ref: HubRef): ModelDtype => ref.dtype ?? 'fp32';

/** The page's name for the model: its reference as written, dtype included. */
export const hubName = (ref: HubRef): string => formatBroughtRef(ref);

/** The sha256 and size of each file of one repository at one commit, as first downloaded. */
export type HubDigests = Record<string, { sha256: string; bytes: number }>;

/** Read back from storage (IndexedDB on the page, a JSON file for the CLI): checked, not trusted. */
export function isHubDigests(value: unknown): value is HubDigests {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (v: unknown) =>
      typeof v === 'object' &&
      v !== null &&
      'sha256' in v &&
      typeof v.sha256 === 'string' &&
      'bytes' in v &&
      typeof v.bytes === 'number',
  );
}

/** Where the digests and the downloaded files are kept, by the reference without its dtype. */
export interface HubStore {
  digests(base: string): Promise<HubDigests | null>;
  saveDigests(base: string, digests: HubDigests): Promise<void>;
  file(base: string, path: string): Promise<Blob | null>;
  putFile(base: string, path: string, blob: Blob): Promise<void>;
  /** Drops the downloaded files; the digests stay, so a later download is checked against them. */
  deleteFiles(base: string): Promise<void>;
}

export function fileUrl(hub: string, ref: HubRef, path: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `${hub.replace(/\/+$/, '')}/${ref.repo}/resolve/${ref.revision}/${encoded}`;
}

/** One file the download asks for; `bytes` and `sha256` where a first download recorded them. */
export interface PlannedFile {
  path: string;
  required: boolean;
  bytes: number | null;
  sha256: string | null;
}

/** What the page tells the reader before anything leaves the origin. */
export interface HubPlan {
  name: string;
  host: string;
  /** Each file's URL is this and its path. */
  prefix: string;
  files: PlannedFile[];
  /** The Pooling config's path comes from modules.json: named here when not recorded. */
  poolingUnknown: boolean;
  /** Files already in this browser (with their recorded digests): not downloaded again. */
  cached: string[];
}

/**
 * The files asked for, in order. The optional sentence-transformers files come before any
 * weights: once a download got weights, an optional file it did not record was not there (a
 * commit cannot change), and is not asked for again.
 */
function fixedFiles(ref: HubRef, digests: HubDigests): { path: string; required: boolean }[] {
  const tried = Object.values(ONNX_WEIGHTS).some((w) => digests[w] !== undefined);
  return [
    ...MODEL_FILES.map((path) => ({ path, required: true })),
    { path: ST_MODULES, required: true },
    ...ST_OPTIONAL.filter((path) => !tried || digests[path] !== undefined).map((path) => ({
      path,
      required: false,
    })),
    { path: ONNX_WEIGHTS[hubDtype(ref)], required: true },
  ];
}

/** The Pooling config's path, as the kept modules.json says; null before modules.json is kept. */
async function keptPoolingPath(base: string, store: HubStore): Promise<string | null> {
  const modules = await store.file(base, ST_MODULES);
  if (!modules) return null;
  const text = await modules.text();
  try {
    return poolingConfigPath((p) => (p === ST_MODULES ? text : null));
  } catch {
    return null;
  }
}

export async function hubPlan(ref: HubRef, hub: string, store: HubStore): Promise<HubPlan> {
  const base = broughtBase(ref);
  const digests = (await store.digests(base)) ?? {};
  const pooling = digests[ST_MODULES] ? await keptPoolingPath(base, store) : null;
  const wanted = [
    ...fixedFiles(ref, digests),
    ...(pooling ? [{ path: pooling, required: true }] : []),
  ];
  const files = wanted.map((f) => ({
    ...f,
    bytes: digests[f.path]?.bytes ?? null,
    sha256: digests[f.path]?.sha256 ?? null,
  }));
  const cached: string[] = [];
  for (const f of files) if (f.sha256 && (await store.file(base, f.path))) cached.push(f.path);
  return {
    name: hubName(ref),
    host: new URL(hub).host,
    prefix: fileUrl(hub, ref, ''),
    files,
    poolingUnknown: !pooling,
    cached,
  };
}

/** Nothing to download: every file the model needs was kept, with its digest, in this browser. */
export function planCached(plan: HubPlan): boolean {
  const kept = new Set(plan.cached);
  return !plan.poolingUnknown && plan.files.every((f) => kept.has(f.path));
}

/** A file whose bytes differ from the digest its first download recorded. */
export class HubDigestMismatch extends Error {
  override name = 'HubDigestMismatch';
}

type Bytes = Uint8Array<ArrayBuffer>;

export interface HubProgress {
  path: string;
  /** 0-based position among the files asked for. */
  index: number;
  total: number;
  received: number;
  /** The file's size when the response (or the record) says it. */
  bytes: number | null;
}

export interface HubDownloadDeps {
  hub: string;
  store: HubStore;
  fetch: typeof fetch;
  /** The page's origin: the marker that keeps the service worker out goes only there. */
  origin: string;
  signal?: AbortSignal;
  onProgress?: (p: HubProgress) => void;
}

async function readBody(
  res: Response,
  report: (received: number, bytes: number | null) => void,
  label: string,
): Promise<Bytes> {
  // A compressed body's length is not the bytes read; a cross-origin answer may hide its encoding,
  // so only a body shorter than announced counts as cut off.
  const encoding = res.headers.get('content-encoding');
  const announced = encoding && encoding !== 'identity' ? null : res.headers.get('content-length');
  const bytes = announced === null ? null : Number(announced);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks.push(r.value);
      received += r.value.length;
      report(received, bytes);
    }
  }
  if (bytes !== null && received < bytes) {
    throw new Error(`${label}: ${received} of ${bytes} bytes arrived (truncated); refused`);
  }
  return joinBytes(chunks, received);
}

function checkDigest(
  label: string,
  want: HubDigests[string] | undefined,
  got: string,
  from: string,
) {
  if (want && want.sha256 !== got) {
    throw new HubDigestMismatch(
      `${label}: sha256 ${got} from ${from}, but its first download recorded sha256 ${want.sha256} (kept in this browser); refused`,
    );
  }
}

interface FileTask {
  ref: HubRef;
  base: string;
  path: string;
  index: number;
  total: number;
  digests: HubDigests;
}

/** One file: the kept copy if its digest holds, else the Hub; null where the Hub has none (404). */
async function takeFile(task: FileTask, deps: HubDownloadDeps): Promise<Bytes | null> {
  const { ref, base, path, digests } = task;
  const label = `${base} ${path}`;
  const want = digests[path];
  const kept = want ? await deps.store.file(base, path) : null;
  if (kept) {
    const bytes = new Uint8Array(await kept.arrayBuffer());
    checkDigest(label, want, await sha256Hex(bytes), 'the copy kept in this browser');
    return bytes;
  }
  const url = fileUrl(deps.hub, ref, path);
  const sameOrigin = new URL(url).origin === deps.origin;
  let res: Response;
  try {
    res = await deps.fetch(url, {
      signal: deps.signal,
      credentials: 'omit',
      cache: 'no-store',
      headers: sameOrigin ? { [READER_DOWNLOAD_HEADER]: '1' } : undefined,
    });
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    throw new Error(
      `${label}: ${url} could not be reached (${errorMessage(err)}): offline, or the Hub is down`,
    );
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new Error(`${label}: ${url} answered ${res.status}`);
  }
  const commit = res.headers.get('x-repo-commit');
  if (commit && commit !== ref.revision) {
    await res.body?.cancel();
    throw new Error(`${label}: the Hub resolved ${ref.revision} to commit ${commit}; refused`);
  }
  const report = (received: number, bytes: number | null) =>
    deps.onProgress?.({ path, index: task.index, total: task.total, received, bytes });
  report(0, want?.bytes ?? null);
  const bytes = await readBody(res, report, label);
  const got = await sha256Hex(bytes);
  checkDigest(label, want, got, url);
  digests[path] = { sha256: got, bytes: bytes.length };
  await deps.store.putFile(base, path, new Blob([bytes]));
  return bytes;
}

/** A Hub model, loaded: the picked model the comparison runs, and whether it was first seen now. */
export interface HubLoaded {
  entry: PickedModel;
  /** Files whose digests this load recorded (trust on first use); the rest were checked. */
  recorded: string[];
}

/**
 * Loads a Hub model from this browser's copy, downloading what is not kept (the reader agreed
 * before this is called). Every downloaded file's digest is recorded, even when a later file
 * fails, so a retry checks what came before.
 */
export async function loadHubModel(ref: HubRef, deps: HubDownloadDeps): Promise<HubLoaded> {
  const base = broughtBase(ref);
  const digests: HubDigests = { ...((await deps.store.digests(base)) ?? {}) };
  const known = new Set(Object.keys(digests));
  const fetched = new Map<string, Bytes>();
  const fixed = fixedFiles(ref, digests);
  const total = fixed.length + 1;
  const take = async (path: string, index: number) => {
    const bytes = await takeFile({ ref, base, path, index, total, digests }, deps);
    if (bytes) fetched.set(path, bytes);
  };
  try {
    for (const [index, f] of fixed.entries()) await take(f.path, index);
    const modules = fetched.get(ST_MODULES);
    if (modules) {
      const text = new TextDecoder().decode(modules);
      await take(
        poolingConfigPath((p) => (p === ST_MODULES ? text : null)),
        fixed.length,
      );
    }
  } finally {
    if (Object.keys(digests).length > known.size) await deps.store.saveDigests(base, digests);
  }
  const name = hubName(ref);
  const folder: ModelFolder = {
    where: `${name} (${new URL(deps.hub).host})`,
    has: async (p) => fetched.has(p),
    read: async (p) => fetched.get(p) ?? null,
  };
  const model = await loadBroughtModel(
    {
      text: name,
      id: name,
      label: `${ref.repo} @${ref.revision.slice(0, 12)}`,
      folder: name,
      dtype: hubDtype(ref),
      upstream: ref.repo,
    },
    folder,
  );
  const files = Object.fromEntries(
    model.files.map((f) => [f.path, new Blob([fetched.get(f.path) ?? new Uint8Array()])]),
  );
  const entry: PickedModel = { id: name, model, files };
  rememberPicked(entry);
  return { entry, recorded: [...fetched.keys()].filter((p) => !known.has(p)) };
}
