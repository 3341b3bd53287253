/**
 * Fills public/models/<id>/<file> for the models in data/models.json: local models (tiny-bert)
 * from their repository folder, hub models from a mirror laid out as <DIR>/<owner>/<name>/<file>
 * or from the Hugging Face Hub at the registry's revision. sha256-checked where the registry has
 * a hash; every file is written through a temporary name.
 * Usage: npm run models [-- --mirror DIR] [--only id,id] [--out DIR] [--if-missing]
 */
import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { exists, writeAtomically } from './lib/files.ts';
import { fileURLToPath } from 'node:url';
import { listModelSpecs, type ModelFile, type ModelSpec } from '../src/lib/embed/model-registry.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HUB = 'https://huggingface.co';

export interface FetchModelsOptions {
  mirror: string | null;
  out: string;
  only: Set<string> | null;
  ifMissing: boolean;
  log: (line: string) => void;
}

export const defaultModelsDir = path.join(root, 'public/models');

function parseArgs(argv: string[]): FetchModelsOptions {
  const opts: FetchModelsOptions = {
    mirror: process.env.MEMLENS_MODEL_MIRROR ?? null,
    out: defaultModelsDir,
    only: null,
    ifMissing: false,
    log: (line) => console.log(line),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--mirror') opts.mirror = path.resolve(argv[++i]);
    else if (a === '--out') opts.out = path.resolve(argv[++i]);
    else if (a === '--only') opts.only = new Set(argv[++i].split(','));
    else if (a === '--if-missing') opts.ifMissing = true;
    else throw new Error(`unknown argument "${a}"`);
  }
  return opts;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

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

/** Where a file's bytes come from, first match wins; null when nowhere has it. */
async function sourceBytes(
  spec: ModelSpec,
  file: ModelFile,
  mirror: string | null,
): Promise<{ bytes: Uint8Array; origin: string } | null> {
  if (spec.source.kind === 'local') {
    const origin = path.join(root, spec.source.path, file.path);
    const bytes = await readIfPresent(origin);
    return bytes && { bytes, origin };
  }
  const { repo, revision } = spec.source;
  for (const dir of mirror ? [path.join(mirror, repo), path.join(mirror, spec.id)] : []) {
    const origin = path.join(dir, file.path);
    const bytes = await readIfPresent(origin);
    if (bytes) return { bytes, origin };
  }
  const url = `${HUB}/${repo}/resolve/${encodeURIComponent(revision)}/${file.path}`;
  const bytes = await download(url);
  return bytes && { bytes, origin: url };
}

async function fetchFile(spec: ModelSpec, file: ModelFile, opts: FetchModelsOptions) {
  const target = path.join(opts.out, spec.id, file.path);
  const existing = opts.ifMissing ? await readIfPresent(target) : null;
  if (existing && (!file.sha256 || sha256(existing) === file.sha256)) return 'kept';
  const found = await sourceBytes(spec, file, opts.mirror);
  if (!found) throw new Error(`${spec.id}/${file.path}: not in the mirror and not downloadable`);
  const actual = sha256(found.bytes);
  if (file.sha256 && actual !== file.sha256) {
    throw new Error(
      `${spec.id}/${file.path}: sha256 ${actual} from ${found.origin}, registry says ${file.sha256}`,
    );
  }
  await writeAtomically(target, found.bytes);
  if (!file.sha256) opts.log(`  (no registry hash) ${spec.id}/${file.path} sha256 ${actual}`);
  return 'wrote';
}

/** Returns the problems; an empty list means every selected model is complete. */
export async function fetchModels(opts: FetchModelsOptions): Promise<string[]> {
  const problems: string[] = [];
  const specs = listModelSpecs().filter((s) => !opts.only || opts.only.has(s.id));
  for (const id of opts.only ?? []) {
    if (!specs.some((s) => s.id === id)) problems.push(`unknown model "${id}"`);
  }
  for (const spec of specs) {
    if (spec.source.kind === 'hub' && spec.source.revisionNote) {
      opts.log(`  note ${spec.id}: ${spec.source.revisionNote}`);
    }
    for (const file of spec.files) {
      try {
        opts.log(`  ${await fetchFile(spec, file, opts)} ${spec.id}/${file.path}`);
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
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
    log: () => undefined,
  });
  if (problems.length > 0) throw new Error(`npm run models failed: ${problems.join('; ')}`);
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  opts.log(
    `memlens models → ${path.relative(root, opts.out) || '.'} (mirror: ${opts.mirror ?? 'none'})`,
  );
  const problems = await fetchModels(opts);
  for (const p of problems) console.error(`error: ${p}`);
  if (problems.length > 0) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
