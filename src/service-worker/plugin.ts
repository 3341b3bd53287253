// Vite plugin (build time, Node): drops non-redistributable data from a deploy build, writes
// `precache-manifest.json` from the files actually emitted, and builds `sw.js` with that
// manifest inlined. Also defines whether the app may fetch upstream.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import type { SourceFile } from '../lib/data/sources.ts';
import {
  MANIFEST_FILE,
  SW_FILE,
  buildPrecacheManifest,
  type BuiltFile,
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

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

async function listFiles(root: string, dir = ''): Promise<BuiltFile[]> {
  const out: BuiltFile[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, rel)));
    else if (entry.isFile()) {
      const bytes = await readFile(path.join(root, rel));
      out.push({ path: rel, bytes: bytes.length, sha256: sha256(bytes) });
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

async function unbundle(outDir: string, sources: readonly SourceFile[]): Promise<void> {
  for (const rel of unbundledPaths(sources)) await rm(path.join(outDir, rel), { force: true });
  const indexPath = path.join(outDir, SITE_INDEX_PATH);
  let index: { files?: unknown };
  try {
    index = JSON.parse(await readFile(indexPath, 'utf8')) as { files?: unknown };
  } catch {
    return;
  }
  await writeFile(indexPath, `${JSON.stringify(indexWithout(index, sources), null, 2)}\n`);
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

export function memlensOffline(options: DeployOptions = deployOptionsFromEnv(process.env)): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'memlens-offline',
    config: () => ({
      define: { __MEMLENS_ALLOW_UPSTREAM__: JSON.stringify(options.allowUpstream) },
    }),
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.command !== 'build' || config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const sources = await readSources(config.root);
      if (options.redistributableOnly) await unbundle(outDir, sources);
      let files = await listFiles(outDir);
      const oversized = oversizedModelFiles(files, options.maxModelFileBytes);
      for (const rel of oversized) {
        await rm(path.join(outDir, rel), { force: true });
        config.logger.warn(`memlens: left ${rel} out of the build (over the per-file limit)`);
      }
      files = files.filter((f) => !oversized.includes(f.path));
      const manifest = buildPrecacheManifest(files, {
        coi: options.coi,
        upstream: upstreamUrls(sources),
        hash: sha256,
      });
      await writeFile(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
      await buildWorker(config.root, outDir, manifest);
    },
  };
}
