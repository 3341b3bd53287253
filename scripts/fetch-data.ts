/**
 * Fills public/data/<dataset>/<file> from a local mirror or from upstream, checking sha256.
 * Usage: npm run data [-- --mirror DIR] [--if-missing] [--only id,id] [--out DIR]
 */
import { readFile } from 'node:fs/promises';
import { manifestProblems } from '../src/lib/benchmarks/registry.ts';
import path from 'node:path';
import { exists, writeAtomically } from './lib/files.ts';
import { fileURLToPath } from 'node:url';
import {
  SITE_INDEX_FILE,
  SOURCES,
  mirrorPathOf,
  verifySource,
  type SourceFile,
} from '../src/lib/data/sources.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { checkCommandLine, type CliSpec } from './lib/cli.ts';

export const FETCH_DATA_CLI: CliSpec = {
  usage: `Usage: npm run data -- [options]

Fills public/data/<dataset>/<file> from a local mirror or from upstream, checking every sha256.

Options:
  --mirror DIR   a local mirror laid out <dataset>/<file> (default: $MEMLENS_DATA_MIRROR, then ../shared/data)
  --out DIR      where the files go (default public/data)
  --only ID,ID   only these source ids (data/sources.json)
  --if-missing   do nothing when every required file is already there
  -h, --help     print this and exit

Exit status: 0 done, 1 a file missing or not matching its sha256, 2 bad command line.`,
  values: ['--mirror', '--out', '--only'],
  flags: ['--if-missing'],
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  mirror: string | null;
  out: string;
  ifMissing: boolean;
  only: Set<string> | null;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    mirror: process.env.MEMLENS_DATA_MIRROR ?? null,
    out: path.join(root, 'public/data'),
    ifMissing: false,
    only: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--mirror') opts.mirror = argv[++i];
    else if (a === '--out') opts.out = path.resolve(argv[++i]);
    else if (a === '--if-missing') opts.ifMissing = true;
    else if (a === '--only') opts.only = new Set(argv[++i].split(','));
    else throw new Error(`unknown argument "${a}"`);
  }
  if (opts.mirror === null) {
    const sibling = path.resolve(root, '../shared/data');
    opts.mirror = sibling;
  }
  return opts;
}

async function readFromMirror(mirror: string, source: SourceFile): Promise<Uint8Array | null> {
  const p = path.join(mirror, mirrorPathOf(source));
  return (await exists(p)) ? new Uint8Array(await readFile(p)) : null;
}

async function readFromUpstream(source: SourceFile): Promise<Uint8Array | null> {
  if (!source.url) return null;
  try {
    const res = await fetch(source.url, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    console.warn(`  ${source.file}: upstream ${source.url} unreachable (${String(err)})`);
    return null;
  }
}

export async function fetchSource(
  source: SourceFile,
  opts: Options,
): Promise<'ok' | 'kept' | 'missing'> {
  const target = path.join(opts.out, source.dataset, source.file);
  if (opts.ifMissing && (await exists(target))) return 'kept';
  const fromMirror = opts.mirror ? await readFromMirror(opts.mirror, source) : null;
  const bytes = fromMirror ?? (await readFromUpstream(source));
  if (!bytes) return 'missing';
  const origin = fromMirror
    ? path.join(opts.mirror ?? '', mirrorPathOf(source))
    : (source.url ?? '');
  await verifySource(source, bytes, origin);
  await writeAtomically(target, bytes);
  return 'ok';
}

export async function fetchAll(
  opts: Options,
  log: (line: string) => void = (line) => console.log(line),
): Promise<string[]> {
  const problems: string[] = [];
  for (const source of SOURCES) {
    if (opts.only && !opts.only.has(source.id)) continue;
    try {
      const status = await fetchSource(source, opts);
      if (status === 'missing') {
        const msg = `${source.dataset}/${source.file}: not in the mirror and not downloadable`;
        if (source.required) problems.push(msg);
        else log(`  skip ${msg} (optional)`);
      } else {
        log(`  ${status === 'ok' ? 'wrote' : 'kept '} ${source.dataset}/${source.file}`);
      }
    } catch (err) {
      problems.push(errorMessage(err));
    }
  }
  return problems;
}

/** `index.json` tells the browser which manifest files this site serves, so it never probes for absent ones. */
export async function writeSiteIndex(out: string): Promise<string[]> {
  const present: string[] = [];
  for (const source of SOURCES) {
    if (await exists(path.join(out, source.dataset, source.file))) present.push(source.id);
  }
  const json = `${JSON.stringify({ files: present }, null, 2)}\n`;
  await writeAtomically(path.join(out, SITE_INDEX_FILE), new TextEncoder().encode(json));
  return present;
}

async function main(): Promise<void> {
  checkCommandLine(FETCH_DATA_CLI);
  const opts = parseArgs(process.argv.slice(2));
  console.log(
    `memlens data → ${path.relative(root, opts.out) || '.'} (mirror: ${opts.mirror ?? 'none'})`,
  );
  const misfiled = manifestProblems(SOURCES);
  const problems = misfiled.length > 0 ? misfiled : await fetchAll(opts);
  await writeSiteIndex(opts.out);
  if (problems.length > 0) {
    for (const p of problems) console.error(`error: ${p}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
