import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { corpusTexts, embedPack } from '../../scripts/lib/embed-pack.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import { vectorKeyScope } from '../../src/lib/embed/vector-cache-key.ts';
import { readVectorPack } from '../../src/lib/vectors/pack.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'memlens-embed-pack-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('embed:pack', () => {
  it('reads a JSON Lines corpus by field, and names the line of a bad record', async () => {
    const good = path.join(dir, 'good.jsonl');
    await writeFile(good, '{"text":"one"}\n{"text":"two"}\n');
    expect(await corpusTexts({ kind: 'jsonl', file: good, field: 'text' })).toEqual(['one', 'two']);
    const bad = path.join(dir, 'bad.jsonl');
    await writeFile(bad, '{"text":"one"}\n{"text":2}\n');
    await expect(corpusTexts({ kind: 'jsonl', file: bad, field: 'text' })).rejects.toThrow(
      /bad\.jsonl:2/,
    );
  });

  it('embeds each distinct text once, under the scope the browser cache uses', async () => {
    const pack = await embedPack({
      model: parseModelRef('tiny-bert', { backend: 'node' }),
      kind: 'document',
      texts: ['a memory', 'another memory', 'a memory'],
    });
    const rows = await readVectorPack(pack.bytes);
    expect(pack.rows).toBe(2);
    expect(rows.map((r) => r.textSha256)).toEqual([
      await sha256Hex('a memory'),
      await sha256Hex('another memory'),
    ]);
    const spec = getModelSpec('tiny-bert');
    expect(rows[0].scope).toEqual(vectorKeyScope(spec, spec.dtypes[0], 'document'));
    expect(rows[0].vector).toHaveLength(spec.dims);
    expect(Math.hypot(...rows[0].vector)).toBeCloseTo(1, 5);
  });
});
