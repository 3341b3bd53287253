// The site's own vectors: each model the site serves embeds the texts of the Reproduce views in
// SITE_PACK_PROTOCOLS (at the paper's defaults, as the page opens them) in Node (fp32 on
// onnxruntime-node, other dtypes on onnxruntime-web's WASM as the page: node-runtime.ts), through
// the CLI's vector cache, into `public/vectors/<model>-<dtype>.parquet`, listed with its
// sha256 in `public/vectors/index.json`. A pack whose inputs (model weights, data files,
// protocols) are unchanged is kept without opening DuckDB or a model.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import type { Embedder, EmbedKind } from '../../src/lib/embed/embedder.ts';
import {
  filesForDtype,
  listModelSpecs,
  localModelRoot,
  type ModelDtype,
  type ModelSpec,
} from '../../src/lib/embed/model-registry.ts';
import { refOfSpec } from '../../src/lib/embed/model-ref.ts';
import { PAGE_DTYPE } from '../../src/lib/embed/site-models.ts';
import { nodeRuntime } from '../../src/lib/embed/node-runtime.ts';
import { batchPlanFor } from '../../src/lib/embed/token-batches.ts';
import { modelRevision, poolingTag } from '../../src/lib/embed/vector-cache-key.ts';
import {
  PACK_VERSION,
  packRowsOf,
  refuseBadVectors,
  uniqueRows,
  writeVectorPack,
} from '../../src/lib/vectors/pack.ts';
import {
  SITE_PACKS_DIR,
  SITE_PACKS_FORMAT,
  SITE_PACKS_INDEX,
  PRECACHED_PACK_GROUP,
  parseSitePackIndex,
  sitePackFile,
  type SitePackEntry,
  type SitePackIndex,
} from '../../src/lib/vectors/site-packs.ts';
import type { CacheCounts } from '../../src/lib/embed/cached-embedder.ts';
import type { Catalog } from '../../src/lib/db/catalog.ts';
import { repoRoot } from './site-build.ts';

/**
 * The views the site ships vectors for, each a protocol id with optional Reproduce parameters, in
 * groups of one pack each per model and dtype: InMind's two protocols (Figure 4 and naive RAG) as
 * the page opens them and naive RAG on the background with its timestamp suffix removed
 * (`bg=content`, the texts the Playground ranks), precached; LoCoMo's with LoCoMo-Plus's (both
 * modes), and LoCoMo-Conv's, each fetched when first drawn (docs/performance.md: their bytes).
 */
export const SITE_PACK_GROUPS: readonly PackGroup[] = [
  { name: PRECACHED_PACK_GROUP, protocols: ['inmind-figure4', 'inmind', 'inmind?bg=content'] },
  // LoCoMo-Plus's retrieval mode stitches its cue turns into LoCoMo's conversations: one pack.
  { name: 'locomo', protocols: ['locomo', 'locomo-plus', 'locomo-plus?mode=retrieval'] },
  { name: 'locomo-conv', protocols: ['locomo-conv'] },
];

/** Every view of every group, in order. */
export const SITE_PACK_PROTOCOLS = SITE_PACK_GROUPS.flatMap((g) => g.protocols);

export interface PackGroup {
  /** `inmind` (precached) or the on-use pack's name part. */
  name: string;
  protocols: readonly string[];
}

/** `inmind?bg=content` → the Reproduce parameters of that view for model `ret`. */
export function packViewParams(view: string, ret: string): Record<string, string> {
  const [bench, query = ''] = view.split('?', 2);
  return { ...Object.fromEntries(new URLSearchParams(query)), bench, ret };
}

export interface SiteVectorsOptions {
  /** The site folder (public/): data/ is read, vectors/ written; models come from public/models. */
  site: string;
  /** Model ids; default every model whose page dtype the site serves. */
  models?: readonly string[];
  /** One precached group of these views instead of SITE_PACK_GROUPS (`--protocols`). */
  protocols?: readonly string[];
  /** The groups to make; default SITE_PACK_GROUPS. */
  groups?: readonly PackGroup[];
  /** Dtypes to make packs in; default every one the site serves. */
  dtypes?: readonly ModelDtype[];
  log?: (line: string) => void;
}

export interface SiteVectorsReport {
  kept: SitePackEntry[];
  written: SitePackEntry[];
  /** Texts embedded (not found in the CLI's vector cache) and found there. */
  counts: CacheCounts;
}

/**
 * Every dtype the site serves `spec` in (public/models has each of its files), the page's own
 * first: the comparison and the dtype picker draw from a pack of each.
 */
export function servedDtypes(spec: ModelSpec): ModelDtype[] {
  const root = path.join(repoRoot, localModelRoot(spec));
  const has = (dtype: ModelDtype) =>
    filesForDtype(spec, dtype).every((f) => existsSync(path.join(root, spec.id, f.path)));
  const order = [PAGE_DTYPE, ...spec.dtypes.filter((d) => d !== PAGE_DTYPE)];
  return order.filter((d) => spec.dtypes.includes(d) && has(d));
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/** Digest of every benchmark file the site serves (a few MB): any change remakes the packs. */
async function dataDigest(site: string): Promise<string> {
  const dataDir = path.join(site, 'data');
  const lines = await Promise.all(
    (await filesUnder(dataDir)).map(
      async (f) => `${path.relative(dataDir, f)} ${await sha256Hex(await readFile(f))}`,
    ),
  );
  return sha256Hex(lines.join('\n'));
}

export async function inputsDigest(
  spec: ModelSpec,
  dtype: ModelDtype,
  protocols: readonly string[],
  data: string,
): Promise<string> {
  return sha256Hex(
    JSON.stringify({
      pack: PACK_VERSION,
      model: spec.id,
      dtype,
      // A pack made by another runtime or batching holds other vectors (q8: other bits).
      runtime: nodeRuntime(dtype),
      batches: batchPlanFor(dtype),
      revision: modelRevision(spec, dtype),
      pooling: poolingTag(spec),
      prefixes: [spec.queryPrefix, spec.documentPrefix],
      protocols,
      data,
    }),
  );
}

export async function readSiteIndex(site: string): Promise<SitePackIndex | null> {
  const file = path.join(site, SITE_PACKS_INDEX);
  if (!existsSync(file)) return null;
  try {
    return parseSitePackIndex(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

async function upToDate(site: string, entry: SitePackEntry | null, inputs: string) {
  if (!entry || entry.inputs !== inputs) return false;
  const bytes = await readFile(path.join(site, SITE_PACKS_DIR, entry.file)).catch(() => null);
  return !!bytes && (await sha256Hex(bytes)) === entry.sha256;
}

/** An embedder that keeps every text and vector it returns, by kind. */
export function recorder(
  inner: Embedder,
  seen: Map<EmbedKind, Map<string, Float32Array>>,
): Embedder {
  return {
    spec: inner.spec,
    backend: inner.backend,
    async embed(texts, opts) {
      const m = await inner.embed(texts, opts);
      const rows = seen.get(opts.kind) ?? new Map<string, Float32Array>();
      seen.set(opts.kind, rows);
      texts.forEach((t, i) => rows.set(t, m.vectors.slice(i * m.dim, (i + 1) * m.dim)));
      return m;
    },
    dispose: () => inner.dispose(),
  };
}

interface SiteCatalog {
  catalog: Catalog;
  close: () => Promise<void>;
}

// DuckDB, onnxruntime-node and the protocols load only when a pack is made: a start whose packs
// are up to date imports none of them.
async function openSite(site: string): Promise<SiteCatalog> {
  const { openSiteCatalog } = await import('./reproduce-catalog.ts');
  return openSiteCatalog(site);
}

async function makePack(
  catalog: Catalog,
  spec: ModelSpec,
  dtype: ModelDtype,
  protocols: readonly string[],
  counts: CacheCounts,
): Promise<{ bytes: ArrayBuffer; rows: number }> {
  const { nodeEmbedderFactory } = await import('./reproduce-embedders.ts');
  const { RetrieverPool } = await import('../../src/lib/protocol-kit/pool.ts');
  const { readReproduceParams } = await import('../../src/lib/protocols/params.ts');
  const { runProtocol } = await import('../../src/lib/protocols/run.ts');
  const { isReleaseSpec } = await import('../../src/lib/benchmarks/options.ts');
  const { loadLocomoPlusRelease } = await import('../../src/lib/protocol-kit/inputs.ts');
  const { recomputeRelease } = await import('../../src/lib/protocol-kit/locomo-plus-release.ts');
  const seen = new Map<EmbedKind, Map<string, Float32Array>>();
  const factory = nodeEmbedderFactory(null, counts);
  const model = refOfSpec(spec, { dtype, backend: 'node' });
  const pool = new RetrieverPool(async (ref) => recorder(await factory(ref), seen));
  try {
    for (const id of protocols) {
      const view = readReproduceParams(packViewParams(id, spec.id));
      if (isReleaseSpec(view.spec)) {
        const embedder = await pool.embedder(model);
        await recomputeRelease(await loadLocomoPlusRelease(catalog), embedder, embedder.vectors);
        continue;
      }
      const retriever = await pool.retriever(model, view.queryPrefix);
      await runProtocol(catalog, view.spec, retriever);
    }
  } finally {
    await pool.dispose();
  }
  const rows = [];
  for (const [kind, byText] of seen) {
    const texts = [...byText.keys()];
    const hashes = await Promise.all(texts.map(sha256Hex));
    const vectors = new Float32Array(texts.length * spec.dims);
    texts.forEach((t, i) => vectors.set(byText.get(t) ?? [], i * spec.dims));
    rows.push(...packRowsOf(model, kind, hashes, { dim: spec.dims, vectors }));
  }
  const unique = uniqueRows(rows);
  refuseBadVectors(unique, [spec]);
  return { bytes: writeVectorPack(unique), rows: unique.length };
}

/** Writes `file` whole or not at all. */
async function writeAtomic(file: string, bytes: Uint8Array | string): Promise<void> {
  const tmp = `${file}.partial`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
}

interface PlannedPack {
  spec: ModelSpec;
  dtype: ModelDtype;
  group: PackGroup;
  inputs: string;
  /** The index's entry when its pack is up to date; null: it must be made. */
  kept: SitePackEntry | null;
}

/** What a run would keep and make, found without DuckDB or a model (a few hashes). */
export async function planSiteVectors(opts: SiteVectorsOptions): Promise<{
  plan: PlannedPack[];
  old: SitePackIndex | null;
}> {
  const groups = opts.protocols
    ? [{ name: PRECACHED_PACK_GROUP, protocols: opts.protocols }]
    : (opts.groups ?? SITE_PACK_GROUPS);
  const specs = listModelSpecs().filter((s) => !opts.models || opts.models.includes(s.id));
  const old = await readSiteIndex(opts.site);
  const data = await dataDigest(opts.site);
  const plan: PlannedPack[] = [];
  for (const spec of specs) {
    for (const dtype of servedDtypes(spec).filter((d) => !opts.dtypes || opts.dtypes.includes(d))) {
      for (const group of groups) {
        const inputs = await inputsDigest(spec, dtype, group.protocols, data);
        const file = sitePackFile(spec.id, dtype, group.name);
        const before = old?.packs.find((p) => p.file === file) ?? null;
        const kept = before && (await upToDate(opts.site, before, inputs)) ? before : null;
        plan.push({ spec, dtype, group, inputs, kept });
      }
    }
  }
  return { plan, old };
}

/** Whether `npm run vectors` would change anything: a pack to make, or one to drop. */
export async function siteVectorsStale(opts: SiteVectorsOptions): Promise<boolean> {
  const { plan, old } = await planSiteVectors(opts);
  return plan.some((p) => !p.kept) || (old?.packs.length ?? 0) !== plan.length;
}

export async function buildSiteVectors(opts: SiteVectorsOptions): Promise<SiteVectorsReport> {
  const log = opts.log ?? (() => undefined);
  const { plan, old } = await planSiteVectors(opts);
  const report: SiteVectorsReport = { kept: [], written: [], counts: { cached: 0, computed: 0 } };
  let site: SiteCatalog | null = null;
  const dir = path.join(opts.site, SITE_PACKS_DIR);
  try {
    for (const { spec, dtype, group, inputs, kept } of plan) {
      if (kept) {
        report.kept.push(kept);
        continue;
      }
      site ??= await openSite(opts.site);
      const started = performance.now();
      const protocols = [...group.protocols];
      const pack = await makePack(site.catalog, spec, dtype, protocols, report.counts);
      const file = sitePackFile(spec.id, dtype, group.name);
      const bytes = new Uint8Array(pack.bytes);
      await mkdir(dir, { recursive: true });
      await writeAtomic(path.join(dir, file), bytes);
      const entry: SitePackEntry = {
        model: spec.id,
        dtype,
        revision: modelRevision(spec, dtype),
        file,
        sha256: await sha256Hex(bytes),
        bytes: bytes.byteLength,
        rows: pack.rows,
        dim: spec.dims,
        protocols,
        inputs,
      };
      report.written.push(entry);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log(
        `  wrote ${SITE_PACKS_DIR}/${file}: ${pack.rows} vectors, ${bytes.byteLength} bytes in ${seconds} s`,
      );
    }
  } finally {
    await site?.close();
  }
  const packs = [...report.kept, ...report.written];
  if (report.written.length > 0 || (old?.packs.length ?? 0) !== packs.length) {
    await writeIndex(opts.site, { format: SITE_PACKS_FORMAT, packs }, old);
  }
  return report;
}

async function writeIndex(site: string, index: SitePackIndex, old: SitePackIndex | null) {
  const dir = path.join(site, SITE_PACKS_DIR);
  await mkdir(dir, { recursive: true });
  for (const gone of old?.packs.filter((p) => !index.packs.some((q) => q.file === p.file)) ?? []) {
    await rm(path.join(dir, gone.file), { force: true });
  }
  await writeAtomic(path.join(site, SITE_PACKS_INDEX), `${JSON.stringify(index, null, 2)}\n`);
}

export const defaultSite = path.join(repoRoot, 'public');
