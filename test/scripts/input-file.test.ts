import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputFileProblem, readInputFile } from '../../scripts/lib/input-file.ts';

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
