// scripts/lib/input-file.ts, and the CLI spawned as a reader runs it (`npm run reproduce --
// --benchmark-file …`) on the files of issue 37: a benchmark whose queries come after its memories
// (37.5), with and without `--mapping`, and a directory where a file is expected (37.6: the path and
// what was expected, never EISDIR).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputFileProblem, readInputFile } from '../../scripts/lib/input-file.ts';
import { LATE_QUERIES_NAME, lateQueriesJsonl } from '../support/late-queries.ts';

describe('a file the CLI is given', () => {
  it('names a directory, a missing path, and reads a file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'memlens-input-'));
    try {
      const rel = path.relative(process.cwd(), dir);
      expect(await inputFileProblem(dir, '--mapping (a declaration)')).toBe(
        `${rel} is a directory; --mapping (a declaration) names a file (give the path of the file in it)`,
      );
      await expect(readInputFile(path.join(dir, 'no.json'), '--mapping')).rejects.toThrow(
        `${path.join(rel, 'no.json')}: no such file; --mapping names a file`,
      );
      await writeFile(path.join(dir, 'a.json'), '{}');
      expect((await readInputFile(path.join(dir, 'a.json'), '--mapping')).toString()).toBe('{}');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const root = path.join(import.meta.dirname, '../..');
let dir = '';

function reproduce(args: readonly string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'reproduce', '--', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'memlens-late-'));
  await writeFile(path.join(dir, LATE_QUERIES_NAME), lateQueriesJsonl(400, 6));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run reproduce on the files of issue 37', () => {
  const file = () => path.join(dir, LATE_QUERIES_NAME);

  it('declares and runs a benchmark whose queries come after 400 memories', async () => {
    const run = await reproduce(['--benchmark-file', file(), '--out', path.join(dir, 'out')]);
    expect(run.out).toMatch(/query \/ c0 +\d+\.\d%/);
    expect(run.out).toMatch(/best target rank per query: line 401 → \d+,/);
    expect(run.code).toBe(0);
  }, 240_000);

  it('runs it with a --mapping declaration naming the late fields', async () => {
    const mapping = path.join(dir, 'decl.json');
    const decl = {
      version: 1,
      memory: { text: 'memory', id: 'fields.id', session: null, date: null },
      query: { text: 'query', gold: 'gold', category: 'fields.category' },
    };
    await writeFile(mapping, JSON.stringify(decl));
    const out = path.join(dir, 'out2');
    const run = await reproduce(['--benchmark-file', file(), '--mapping', mapping, '--out', out]);
    expect(run.out).toMatch(/query \/ c2 +\d+\.\d%/);
    expect(run.code).toBe(0);
  }, 240_000);

  it('names a directory given where a file is expected, and what it expected', async () => {
    const run = await reproduce(['--benchmark-file', dir]);
    expect(run.code).toBe(1);
    expect(run.out).toContain(`${path.relative(root, dir)} is a directory; --benchmark-file`);
    expect(run.out).not.toContain('EISDIR');
    const mapped = await reproduce(['--benchmark-file', file(), '--mapping', dir]);
    expect(mapped.code).toBe(1);
    expect(mapped.out).toContain('is a directory; --mapping (a declaration) names a file');
    expect(mapped.out).not.toContain('EISDIR');
  }, 240_000);
});
