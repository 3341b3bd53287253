// The e2e build (which leaves vectors/ out) with the site's own vector packs added, as a real
// build with `npm run vectors` run before it serves them: written by scripts/lib/site-vectors.ts
// into a temporary public/ beside the real data, then listed in the copy's manifest and worker.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { buildSite, repoRoot } from '../../scripts/lib/site-build.ts';
import { buildSiteVectors, type SiteVectorsOptions } from '../../scripts/lib/site-vectors.ts';
import { MANIFEST_FILE, SW_FILE, type PrecacheManifest } from '../../src/lib/offline/precache.ts';
import { writeOfflineFiles } from '../../src/service-worker/plugin.ts';
import { SITE_PACKS_DIR, type SitePackEntry } from '../../src/lib/vectors/site-packs.ts';

export interface SiteWithPacks {
  /** The folder to serve. */
  site: string;
  /** Every pack written, in the index's order. */
  packs: SitePackEntry[];
}

/**
 * Copies the test build into `dir`/site (hard links) with `packDir` as its vectors/, then lists
 * the copy's files as a real build does: its manifest and the service worker that inlines it.
 */
async function copyWithPacks(dir: string, packDir: string): Promise<string> {
  const site = path.join(dir, 'site');
  const cp = spawnSync('cp', ['-al', await buildSite(), site]);
  if (cp.status !== 0) throw new Error(`cp -al: ${cp.stderr.toString()}`);
  spawnSync('cp', ['-r', packDir, path.join(site, SITE_PACKS_DIR)]);
  const built = JSON.parse(
    await readFile(path.join(site, MANIFEST_FILE), 'utf8'),
  ) as PrecacheManifest;
  // Fresh files: the build's own are hard links shared with dist-e2e.
  for (const file of [MANIFEST_FILE, SW_FILE]) await rm(path.join(site, file));
  await writeOfflineFiles(repoRoot, site, null, { coi: built.coi, upstream: built.upstream });
  return site;
}

/** Makes the packs `opts` asks for in `dir` (a temporary folder the caller removes), then the site. */
export async function siteWithPacks(
  dir: string,
  opts: Omit<SiteVectorsOptions, 'site'>,
): Promise<SiteWithPacks> {
  const packSite = path.join(dir, 'public');
  await mkdir(packSite);
  await symlink(path.join(repoRoot, 'public/data'), path.join(packSite, 'data'));
  const report = await buildSiteVectors({ ...opts, site: packSite });
  const site = await copyWithPacks(dir, path.join(packSite, SITE_PACKS_DIR));
  return { site, packs: report.written };
}
