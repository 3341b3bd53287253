// The site's own vector packs: `vectors/index.json` lists one pack per model and dtype, pinned by
// sha256, written by `npm run vectors` (prestart runs it). A page whose texts are all in a pack
// scores from it without loading the model. The pack's file name and lookup live here only.
import { errorMessage } from '../common/error-message.ts';
import { formatBytes } from '../common/format-bytes.ts';
import { readWatched, StallWatch } from '../common/stall-watch.ts';
import { timeoutMs } from '../embed/test-hooks.ts';
import { plural } from '../common/plural.ts';
import { sha256Hex } from '../common/sha256.ts';
import type { Embedder, EmbedKind, EmbeddingMatrix, EmbedOptions } from '../embed/embedder.ts';
import { MODEL_DTYPES, type ModelDtype, type ModelSpec } from '../embed/model-registry.ts';
import { vectorKeyScope, vectorKeys } from '../embed/vector-cache-key.ts';
import { loadSiteManifest } from '../offline/site-files.ts';
import { MANIFEST_FILE, ON_USE_PACK_SUFFIX } from '../offline/precache.ts';
import { checkPack, matrixFromPack, readVectorPack, refuseBadVectors } from './pack.ts';

export const SITE_PACKS_DIR = 'vectors';
export const SITE_PACKS_INDEX = `${SITE_PACKS_DIR}/index.json`;
export const SITE_PACKS_FORMAT = 'memlens-site-vectors';

export interface SitePackEntry {
  model: string;
  dtype: ModelDtype;
  /** What the pack's vectors are keyed on (the weights' sha256), as the vector cache keys it. */
  revision: string;
  /** Relative to `vectors/`. */
  file: string;
  sha256: string;
  bytes: number;
  rows: number;
  dim: number;
  /** The Reproduce views whose texts it holds (protocol ids, at the paper's defaults). */
  protocols: string[];
  /** Digest of what the pack was made from: up to date while it is unchanged. */
  inputs: string;
}

export interface SitePackIndex {
  format: typeof SITE_PACKS_FORMAT;
  packs: SitePackEntry[];
}

export class SitePackError extends Error {}

/**
 * A site file (the index, a pack) that sends no byte for this long is stopped and named, and the
 * run embeds instead: a bound on progress, not on total time, so a slow connection never hits it.
 */
export const SITE_PACK_STALL_SECONDS = 30;

/** The stall's message: the file, how far it got, for how long. */
function stallError(file: string, seconds: number, read: number): SitePackError {
  const what = read === 0 ? 'no byte' : `no byte after the first ${formatBytes(read)}`;
  return new SitePackError(
    `${file}: ${what} for ${seconds} s, so the download was stopped; the server stalled`,
  );
}

/** "sha256 0123456789ab…": a pack's digest as the pages name it. */
export const shortDigest = (sha256: string): string => `sha256 ${sha256.slice(0, 12)}…`;

/** The group of views whose pack the service worker precaches (InMind's); others come on first use. */
export const PRECACHED_PACK_GROUP = 'inmind';

/**
 * The one name a model's pack of a group of views has on the site: InMind's keeps the plain name;
 * another group's ends in `.on-use.parquet`, which the build leaves out of the precache.
 */
export function sitePackFile(
  model: string,
  dtype: ModelDtype,
  group: string = PRECACHED_PACK_GROUP,
): string {
  const name = group === PRECACHED_PACK_GROUP ? `${model}-${dtype}` : `${model}-${dtype}-${group}`;
  const ext = group === PRECACHED_PACK_GROUP ? '.parquet' : ON_USE_PACK_SUFFIX;
  return `${name.replace(/[^A-Za-z0-9_-]/g, '_')}${ext}`;
}

/** The protocol id of a pack's view (`inmind?bg=content` → `inmind`). */
export const viewBenchmark = (view: string): string => view.split('?', 1)[0];

/**
 * The pack of `model` in `dtype` that holds the views of protocol `benchmark`; without one, the
 * first the index lists (InMind's: the Playground's texts).
 */
export function findSitePack(
  index: SitePackIndex,
  model: string,
  dtype: ModelDtype,
  benchmark?: string,
): SitePackEntry | null {
  const mine = index.packs.filter((p) => p.model === model && p.dtype === dtype);
  if (benchmark === undefined) return mine[0] ?? null;
  return mine.find((p) => p.protocols.some((v) => viewBenchmark(v) === benchmark)) ?? null;
}

function field<T>(
  record: Record<string, unknown>,
  name: string,
  where: string,
  ok: (v: unknown) => v is T,
  what: string,
): T {
  const v = record[name];
  if (!ok(v)) throw new SitePackError(`${where}: "${name}" is not ${what}`);
  return v;
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isDtype = (v: unknown): v is ModelDtype => MODEL_DTYPES.some((d) => d === v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isHex = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseEntry(value: unknown, where: string): SitePackEntry {
  if (!isRecord(value)) throw new SitePackError(`${where}: not an object`);
  const file = field(value, 'file', where, isString, 'a file name');
  if (file.includes('/') || file.startsWith('.')) {
    throw new SitePackError(`${where}: "file" must be a name inside ${SITE_PACKS_DIR}/`);
  }
  return {
    model: field(value, 'model', where, isString, 'a model id'),
    dtype: field(value, 'dtype', where, isDtype, `one of ${MODEL_DTYPES.join(', ')}`),
    revision: field(value, 'revision', where, isString, 'a revision'),
    file,
    sha256: field(value, 'sha256', where, isHex, 'a sha256'),
    bytes: field(value, 'bytes', where, isCount, 'a byte count'),
    rows: field(value, 'rows', where, isCount, 'a row count'),
    dim: field(value, 'dim', where, isCount, 'a dimension'),
    protocols: field(value, 'protocols', where, isStrings, 'a list of protocol ids'),
    inputs: field(value, 'inputs', where, isHex, 'a sha256'),
  };
}

/** The index, checked field by field; an error names the entry and the field. */
export function parseSitePackIndex(json: unknown): SitePackIndex {
  const where = SITE_PACKS_INDEX;
  if (!isRecord(json) || json.format !== SITE_PACKS_FORMAT) {
    throw new SitePackError(`${where}: not a site vector index (format ${SITE_PACKS_FORMAT})`);
  }
  if (!Array.isArray(json.packs)) throw new SitePackError(`${where}: "packs" is not a list`);
  return {
    format: SITE_PACKS_FORMAT,
    packs: json.packs.map((p, i) => parseEntry(p, `${where} packs[${i}]`)),
  };
}

/** Some text a run asked for is not in the pack: the page embeds instead. */
export class PackMissError extends Error {
  constructor(readonly missing: number) {
    super(`${plural(missing, 'text')} ${missing === 1 ? 'is' : 'are'} not in the site's vectors`);
    this.name = 'PackMissError';
  }
}

/** A pack's vectors by cache key, and the embedder that serves them. */
export class SitePackVectors {
  constructor(
    readonly entry: SitePackEntry,
    private readonly byKey: ReadonlyMap<string, Float32Array>,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  /** The pack's vectors for `texts` in order; undefined where it has none. */
  async lookup(
    spec: ModelSpec,
    kind: EmbedKind,
    texts: readonly string[],
  ): Promise<(Float32Array | undefined)[]> {
    const keys = await vectorKeys(vectorKeyScope(spec, this.entry.dtype, kind), texts);
    return keys.map((k) => this.byKey.get(k));
  }

  /** An embedder that computes nothing: it answers from the pack, or throws PackMissError. */
  embedder(spec: ModelSpec): Embedder {
    const lookup = (kind: EmbedKind, texts: readonly string[]) => this.lookup(spec, kind, texts);
    return {
      spec,
      backend: 'node',
      async embed(texts: readonly string[], opts: EmbedOptions): Promise<EmbeddingMatrix> {
        const rows = await lookup(opts.kind, texts);
        const found = rows.flatMap((r) => (r ? [r] : []));
        if (found.length < rows.length) throw new PackMissError(rows.length - found.length);
        return matrixFromPack(found, spec.dims, opts);
      },
      dispose: async () => undefined,
    };
  }
}

/** How many texts a `packFirst` embedder answered from the pack, and how many it embedded. */
export interface PackFirstCounts {
  fromPack: number;
  embedded: number;
}

/**
 * `inner`, answering first from the site's pack: only the texts the pack lacks (a typed query, a
 * reader's own memories) reach the model. Rows come back in input order.
 */
export function packFirst(
  inner: Embedder,
  pack: SitePackVectors,
  counts: PackFirstCounts = { fromPack: 0, embedded: 0 },
): Embedder {
  const { spec } = inner;
  return {
    spec,
    backend: inner.backend,
    async embed(texts: readonly string[], opts: EmbedOptions): Promise<EmbeddingMatrix> {
      const rows = await pack.lookup(spec, opts.kind, texts);
      const missing = texts.flatMap((t, i) => (rows[i] ? [] : [t]));
      const found = texts.length - missing.length;
      const report = opts.onProgress;
      const fresh =
        missing.length === 0
          ? null
          : await inner.embed(missing, {
              ...opts,
              onProgress:
                report &&
                ((p) =>
                  report({
                    ...p,
                    done: p.done + found,
                    total: p.total + found,
                    cached: p.cached + found,
                  })),
            });
      counts.fromPack += found;
      counts.embedded += missing.length;
      let next = 0;
      const merged = rows.map((row) => {
        if (row) return row;
        const at = next++;
        return fresh ? fresh.vectors.subarray(at * fresh.dim, (at + 1) * fresh.dim) : [];
      });
      return matrixFromPack(merged, spec.dims, {
        onProgress: missing.length === 0 ? report : undefined,
      });
    },
    dispose: () => inner.dispose(),
  };
}

/** Checks the pack's bytes against the index and keeps the rows this site's model would make. */
export async function sitePackVectors(
  entry: SitePackEntry,
  bytes: ArrayBuffer,
  spec: ModelSpec,
): Promise<SitePackVectors> {
  const got = await sha256Hex(new Uint8Array(bytes));
  if (got !== entry.sha256) {
    throw new SitePackError(
      `${SITE_PACKS_DIR}/${entry.file}: sha256 ${got.slice(0, 12)}… is not the index's ${entry.sha256.slice(0, 12)}…`,
    );
  }
  let rows;
  try {
    rows = await readVectorPack(bytes);
    refuseBadVectors(rows, [spec]);
  } catch (err) {
    throw new SitePackError(`${SITE_PACKS_DIR}/${entry.file}: ${errorMessage(err)}`);
  }
  const { accepted } = checkPack(rows, [spec]);
  return new SitePackVectors(entry, new Map(accepted.map((a) => [a.key, a.vector])));
}

/** The largest |a − b| over every component of the rows both hold; rows of other widths count as missing. */
export function maxDeviation(
  computed: readonly Float32Array[],
  reference: readonly (Float32Array | undefined)[],
): { max: number; compared: number; missing: number } {
  let max = 0;
  let compared = 0;
  let missing = 0;
  computed.forEach((row, i) => {
    const ref = reference[i];
    if (!ref || ref.length !== row.length) {
      missing++;
      return;
    }
    compared++;
    for (let j = 0; j < row.length; j++) max = Math.max(max, Math.abs(row[j] - ref[j]));
  });
  return { max, compared, missing };
}

/**
 * The site's packs as a page finds them: the index once (listed in the build's file list, or
 * fetched where there is none: the dev server), each pack once when first asked for.
 */
export class SitePacks {
  private index: Promise<SitePackIndex | null> | null = null;
  private readonly loaded = new Map<string, Promise<SitePackVectors>>();

  /** No byte for this long stops a download (`SITE_PACK_STALL_SECONDS`; shorter in tests). */
  private readonly stallMs: number;

  constructor(
    private readonly siteBase: string,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
    opts: { stallMs?: number } = {},
  ) {
    this.stallMs = opts.stallMs ?? timeoutMs('site-pack', SITE_PACK_STALL_SECONDS * 1000);
  }

  /** The site file at `rel` (under the site's base), each step bounded by the stall time-out. */
  private async fetchWatched(
    rel: string,
  ): Promise<{ res: Response; body: () => Promise<Uint8Array<ArrayBuffer>> }> {
    let read = 0;
    const watch = new StallWatch(this.stallMs, () => stallError(rel, this.stallMs / 1000, read));
    const res = await watch.step(
      this.fetchImpl(new URL(rel, this.siteBase).href, { signal: watch.controller.signal }),
    );
    return { res, body: () => readWatched(res, watch, (n) => (read = n)) };
  }

  /** The build's file list, read with the same bound: a stalled one is no list (as a missing one). */
  private readonly manifestFetch: typeof fetch = async () => {
    const { res, body } = await this.fetchWatched(MANIFEST_FILE);
    return new Response(res.ok ? await body() : null, { status: res.status, headers: res.headers });
  };

  /** The index; null where the site has none. A broken index is an error naming its field. */
  list(): Promise<SitePackIndex | null> {
    this.index ??= this.readIndex();
    return this.index;
  }

  /** `benchmark`: the pack holding that protocol's views; absent: the first (InMind's). */
  async find(model: string, dtype: ModelDtype, benchmark?: string): Promise<SitePackEntry | null> {
    const index = await this.list();
    return index ? findSitePack(index, model, dtype, benchmark) : null;
  }

  /**
   * The vectors of `model`'s pack in `dtype`, fetched and checked once per page; null where the
   * site has none. An unreadable index or pack throws.
   */
  async vectorsOf(
    model: string,
    dtype: ModelDtype,
    spec: ModelSpec,
    benchmark?: string,
  ): Promise<SitePackVectors | null> {
    const entry = await this.find(model, dtype, benchmark);
    return entry ? this.vectors(entry, spec) : null;
  }

  /** The pack's vectors, fetched and checked once per page. */
  vectors(entry: SitePackEntry, spec: ModelSpec): Promise<SitePackVectors> {
    const key = entry.file;
    let found = this.loaded.get(key);
    if (!found) {
      found = this.fetchPack(entry, spec);
      found.catch(() => this.loaded.delete(key));
      this.loaded.set(key, found);
    }
    return found;
  }

  private async readIndex(): Promise<SitePackIndex | null> {
    const manifest = await loadSiteManifest(this.siteBase, this.manifestFetch);
    if (manifest && !manifest.precache.some((e) => e.url === SITE_PACKS_INDEX)) return null;
    const { res, body } = await this.fetchWatched(SITE_PACKS_INDEX);
    // A dev server's SPA fallback (or a host's 404 page) answers a missing file with HTML.
    const html = (res.headers.get('content-type') ?? '').startsWith('text/html');
    if (res.status === 404 || (res.ok && html)) return null;
    if (!res.ok) throw new SitePackError(`${SITE_PACKS_INDEX}: HTTP ${res.status}`);
    const bytes = await body();
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (err) {
      throw new SitePackError(`${SITE_PACKS_INDEX}: not JSON (${errorMessage(err)})`);
    }
    return parseSitePackIndex(json);
  }

  private async fetchPack(entry: SitePackEntry, spec: ModelSpec): Promise<SitePackVectors> {
    const { res, body } = await this.fetchWatched(
      `${SITE_PACKS_DIR}/${encodeURIComponent(entry.file)}`,
    );
    if (!res.ok) throw new SitePackError(`${SITE_PACKS_DIR}/${entry.file}: HTTP ${res.status}`);
    return sitePackVectors(entry, (await body()).buffer, spec);
  }
}
