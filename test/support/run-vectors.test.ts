import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RUN_DIR_ENV, runNodeVectors, storedRunRows } from './run-vectors.ts';

const TEXTS = ['a short memory', 'the user moved to Lisbon in May', 'what city?'];
const saved = process.env[RUN_DIR_ENV];
const dirs: string[] = [];

afterEach(() => {
  if (saved === undefined) delete process.env[RUN_DIR_ENV];
  else process.env[RUN_DIR_ENV] = saved;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("rows of a run's stored vectors", () => {
  it('are the rows asked for, in their order, once a file has stored the list', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'memlens-run-vectors-'));
    dirs.push(dir);
    process.env[RUN_DIR_ENV] = dir;
    expect(await storedRunRows('tiny-bert', 'fp32', TEXTS, [0])).toBeNull();
    const all = await runNodeVectors('tiny-bert', 'fp32', TEXTS);
    const rows = await storedRunRows('tiny-bert', 'fp32', TEXTS, [2, 0]);
    expect(rows?.dim).toBe(all.dim);
    expect(rows?.vectors).toEqual(
      Float32Array.from([
        ...all.vectors.subarray(2 * all.dim),
        ...all.vectors.subarray(0, all.dim),
      ]),
    );
    // Another list (or dtype) is another entry.
    expect(await storedRunRows('tiny-bert', 'fp32', TEXTS.slice(1), [0])).toBeNull();
  });

  it('are null outside npm test (no run folder)', async () => {
    delete process.env[RUN_DIR_ENV];
    expect(await storedRunRows('tiny-bert', 'fp32', TEXTS, [0])).toBeNull();
  });
});
