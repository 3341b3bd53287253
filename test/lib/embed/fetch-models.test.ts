import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { fetchModels, type FetchModelsOptions } from '../../../scripts/fetch-models.ts';
import { getModelSpec } from '../../../src/lib/embed/model-registry.ts';

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
});
