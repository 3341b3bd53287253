import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixtureDir = join(repoRoot, 'test/fixtures/models/tiny-bert');
const tsxCli = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
const tempDirs: string[] = [];

async function sha256Tree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const hashes: Record<string, string> = {};
  for (const file of files.sort()) {
    const key = relative(dir, file).split('\\').join('/');
    hashes[key] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return hashes;
}

afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('scripts/make-tiny-bert.ts', () => {
  it('regenerates the committed fixture byte for byte', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tiny-bert-'));
    tempDirs.push(out);
    execFileSync(process.execPath, [tsxCli, 'scripts/make-tiny-bert.ts', '--out', out], {
      cwd: repoRoot,
      stdio: 'pipe',
    });
    const regenerated = await sha256Tree(out);
    expect(Object.keys(regenerated).sort()).toEqual([
      'config.json',
      'onnx/model.onnx',
      'tokenizer.json',
      'tokenizer_config.json',
      'vocab.txt',
    ]);
    expect(regenerated).toEqual(await sha256Tree(fixtureDir));
  });

  it('matches the sha256 list in data/models.json', async () => {
    const fixture = await sha256Tree(fixtureDir);
    const registered = Object.fromEntries(
      getModelSpec('tiny-bert').files.map((file) => [file.path, file.sha256]),
    );
    expect(registered).toEqual(fixture);
  });
});
