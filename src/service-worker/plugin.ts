// Vite plugin (build time, Node): drops non-redistributable data from a deploy build, writes
// `precache-manifest.json` from the files actually emitted, and builds `sw.js` with that
// manifest inlined. Also defines whether the app may fetch upstream.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { importMapText, withIntegrity } from '../lib/offline/sri.ts';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import type { SourceFile } from '../lib/data/sources.ts';
import type { Pin } from '../lib/data/integrity.ts';
import { sha256Hex } from '../lib/common/sha256.ts';
import { SITE_PACKS_DIR } from '../lib/vectors/site-packs.ts';
import { listModelSpecs } from '../lib/embed/model-registry.ts';
import { contentSecurityPolicy, upstreamOrigins } from '../lib/offline/csp.ts';
import {
  MANIFEST_FILE,
  SW_FILE,
  buildPrecacheManifest,
  type BuiltFile,
  type ManifestOptions,
  type PrecacheManifest,
} from '../lib/offline/precache.ts';
import {
  SITE_INDEX_PATH,
  deployOptionsFromEnv,
  indexWithout,
  oversizedModelFiles,
  unbundledPaths,
  upstreamUrls,
  type DeployOptions,
} from '../lib/offline/deploy-options.ts';

async function listFiles(root: string, dir = ''): Promise<BuiltFile[]> {
  const out: BuiltFile[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, rel)));
    else if (entry.isFile()) {
      const bytes = await readFile(path.join(root, rel));
      out.push({ path: rel, bytes: bytes.length, sha256: await sha256Hex(bytes) });
    }
  }
  return out;
}

async function readSources(root: string): Promise<SourceFile[]> {
  const json = JSON.parse(await readFile(path.join(root, 'data/sources.json'), 'utf8')) as {
    files: SourceFile[];
  };
  return json.files;
}

/** The bytes of `data/index.json` the build will ship: `public/`'s copy, less unbundled files. */
async function shippedIndex(
  publicDir: string,
  sources: readonly SourceFile[],
  options: DeployOptions,
): Promise<Buffer | null> {
  let raw: Buffer;
  try {
    raw = await readFile(path.join(publicDir, SITE_INDEX_PATH));
  } catch {
    return null;
  }
  if (!options.redistributableOnly) return raw;
  let index: { files?: unknown };
  try {
    index = JSON.parse(raw.toString('utf8')) as { files?: unknown };
  } catch {
    return raw;
  }
  return Buffer.from(`${JSON.stringify(indexWithout(index, sources), null, 2)}\n`);
}

async function unbundle(outDir: string, sources: readonly SourceFile[], index: Buffer | null) {
  for (const rel of unbundledPaths(sources)) await rm(path.join(outDir, rel), { force: true });
  if (index) await writeFile(path.join(outDir, SITE_INDEX_PATH), index);
}

/**
 * Size and sha256 of the files the page reads that `data/sources.json` does not pin: the results
 * and reproduced CSVs and the data index. Builds only: in development these files may change under the server.
 */
async function sitePins(root: string, index: Buffer | null): Promise<Record<string, Pin>> {
  const pins: Record<string, Pin> = {};
  const pin = async (bytes: Buffer): Promise<Pin> => ({
    sha256: await sha256Hex(bytes),
    bytes: bytes.length,
  });
  for (const folder of ['data/results', 'data/reproduced']) {
    const dir = path.join(root, folder);
    const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.csv')).sort();
    for (const name of names)
      pins[`${folder}/${name}`] = await pin(await readFile(path.join(dir, name)));
  }
  if (index) pins[SITE_INDEX_PATH] = await pin(index);
  return pins;
}

async function buildWorker(root: string, outDir: string, manifest: PrecacheManifest) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    define: { __MEMLENS_MANIFEST__: JSON.stringify(manifest) },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2022',
      sourcemap: false,
      lib: {
        entry: path.join(root, 'src/service-worker/sw.ts'),
        formats: ['iife'],
        name: 'memlensServiceWorker',
        fileName: () => SW_FILE,
      },
    },
  });
}

/**
 * The precache manifest of the built files in `outDir` and the service worker that inlines it.
 * `files` defaults to what `outDir` holds now (a built site given more files after its build).
 */
export async function writeOfflineFiles(
  root: string,
  outDir: string,
  files: readonly BuiltFile[] | null,
  opts: ManifestOptions,
): Promise<PrecacheManifest> {
  const manifest = await buildPrecacheManifest(files ?? (await listFiles(outDir)), opts);
  await writeFile(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  await buildWorker(root, outDir, manifest);
  return manifest;
}

const digest = (algo: 'sha256' | 'sha384', data: Buffer | string) =>
  `${algo}-${createHash(algo).update(data).digest('base64')}`;

/** Every script of the build gets its sha384 in index.html (lib/offline/sri.ts). */
async function addScriptIntegrity(outDir: string, base: string): Promise<void> {
  const assets = path.join(outDir, 'assets');
  if (!existsSync(assets)) return;
  const integrity = new Map<string, string>();
  for (const name of (await readdir(assets)).filter((n) => n.endsWith('.js')).sort()) {
    integrity.set(
      `${base}assets/${name}`,
      digest('sha384', await readFile(path.join(assets, name))),
    );
  }
  const indexFile = path.join(outDir, 'index.html');
  const html = await readFile(indexFile, 'utf8');
  const mapHash = digest('sha256', importMapText(integrity));
  await writeFile(indexFile, withIntegrity(html, integrity, mapHash));
}

/** The policy a built index.html carries (with its import map's hash), for `vite preview`. */
function builtPolicy(outDir: string): string | null {
  const file = path.join(outDir, 'index.html');
  if (!existsSync(file)) return null;
  const m = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(
    readFileSync(file, 'utf8'),
  );
  return m ? m[1].replaceAll('&#39;', "'") : null;
}

export function buildCsp(sources: readonly SourceFile[], options: DeployOptions): string {
  return contentSecurityPolicy(
    options.allowUpstream ? upstreamOrigins(sources.map((s) => s.url)) : [],
  );
}

/** Removes the test-only models' files and their site vector packs (and index entries). */
async function dropTestModels(outDir: string): Promise<void> {
  const ids = new Set(listModelSpecs().flatMap((m) => (m.testOnly ? [m.id] : [])));
  for (const id of ids) await rm(path.join(outDir, 'models', id), { recursive: true, force: true });
  const probes = path.join(outDir, 'probes');
  const probeFiles = existsSync(probes) ? await readdir(probes) : [];
  for (const name of probeFiles.filter((n) => ids.has(n.slice(0, n.lastIndexOf('-'))))) {
    await rm(path.join(probes, name), { force: true });
  }
  const indexFile = path.join(outDir, SITE_PACKS_DIR, 'index.json');
  if (!existsSync(indexFile)) return;
  const index: unknown = JSON.parse(await readFile(indexFile, 'utf8'));
  if (typeof index !== 'object' || index === null || !('packs' in index)) return;
  const packs = Array.isArray(index.packs) ? index.packs : [];
  const isTest = (p: unknown) =>
    typeof p === 'object' && p !== null && 'model' in p && ids.has(String(p.model));
  for (const pack of packs.filter(isTest)) {
    const file =
      typeof pack === 'object' && pack !== null && 'file' in pack ? String(pack.file) : '';
    if (file) await rm(path.join(outDir, SITE_PACKS_DIR, file), { force: true });
  }
  const kept = { ...index, packs: packs.filter((p: unknown) => !isTest(p)) };
  await writeFile(indexFile, `${JSON.stringify(kept, null, 2)}\n`);
}

export function memlensOffline(options: DeployOptions = deployOptionsFromEnv(process.env)): Plugin {
  let config: ResolvedConfig;
  let index: Buffer | null = null;
  let csp = '';
  return {
    name: 'memlens-offline',
    async config(user, env) {
      const root = path.resolve(user.root ?? process.cwd());
      let pins: Record<string, Pin> = {};
      if (env.command === 'build') {
        const sources = await readSources(root);
        const publicDir = path.resolve(root, user.publicDir || 'public');
        index = await shippedIndex(publicDir, sources, options);
        pins = await sitePins(root, index);
        csp = buildCsp(sources, options);
      } else if (env.isPreview) {
        const outDir = path.resolve(root, user.build?.outDir ?? 'dist');
        csp = builtPolicy(outDir) ?? buildCsp(await readSources(root), options);
      }
      return {
        define: {
          __MEMLENS_ALLOW_UPSTREAM__: JSON.stringify(options.allowUpstream),
          __MEMLENS_PINS__: JSON.stringify(pins),
          __MEMLENS_BUILD__: JSON.stringify(env.command === 'build'),
        },
      };
    },
    configResolved(resolved) {
      config = resolved;
    },
    configurePreviewServer(server) {
      server.middlewares.use((_req, res, next) => {
        if (csp) res.setHeader('Content-Security-Policy', csp);
        next();
      });
    },
    // Built sites only: the dev server's HMR client needs a websocket and inline updates.
    transformIndexHtml() {
      if (!csp) return [];
      return [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: csp },
          injectTo: 'head-prepend',
        },
      ];
    },
    async closeBundle() {
      if (config.command !== 'build' || config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const sources = await readSources(config.root);
      if (options.redistributableOnly) await unbundle(outDir, sources, index);
      if (options.siteVectors === false) {
        await rm(path.join(outDir, SITE_PACKS_DIR), { recursive: true, force: true });
      }
      // The test model (random weights) ships only in the builds the e2e tests and benchmarks make.
      if (config.define?.__MEMLENS_TEST_HOOKS__ !== 'true') await dropTestModels(outDir);
      await addScriptIntegrity(outDir, config.base);
      let files = await listFiles(outDir);
      const oversized = oversizedModelFiles(files, options.maxModelFileBytes);
      for (const rel of oversized) {
        await rm(path.join(outDir, rel), { force: true });
        config.logger.warn(`memlens: left ${rel} out of the build (over the per-file limit)`);
      }
      files = files.filter((f) => !oversized.includes(f.path));
      await writeOfflineFiles(config.root, outDir, files, {
        coi: options.coi,
        upstream: upstreamUrls(sources),
      });
    },
  };
}
