import { describe, expect, it } from 'vitest';
import { getModelSpec, listModelSpecs } from '../../../src/lib/embed/model-registry.ts';
import { vectorKeys, vectorKeyScope } from '../../../src/lib/embed/vector-cache-key.ts';
import type { VectorStore } from '../../../src/lib/embed/vector-cache.ts';
import {
  describeImport,
  exportPack,
  importPack,
  packFileName,
} from '../../../src/lib/vectors/pack-io.ts';
import { readVectorPack, writeVectorPack } from '../../../src/lib/vectors/pack.ts';
import { refOfSpec } from '../../../src/lib/embed/model-ref.ts';

class MemoryStore implements VectorStore {
  readonly map = new Map<string, Float32Array>();
  puts = 0;
  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.map.get(k));
  }
  async putMany(entries: readonly { key: string; vector: Float32Array }[]) {
    this.puts++;
    for (const e of entries) this.map.set(e.key, e.vector);
  }
}

const spec = getModelSpec('tiny-bert');
const dtype = spec.dtypes[0];
const texts = ['alpha', 'beta', 'alpha', 'gamma'];
/** Four unit rows of tiny-bert's width: e0, e1, e0 and (0.6, 0.8, 0, …). */
const ROWS = [
  [1, 0],
  [0, 1],
  [1, 0],
  [0.6, 0.8],
];
const wide = (r: number[]) => Array.from({ length: spec.dims }, (_, j) => r[j] ?? 0);
const matrix = { dim: spec.dims, vectors: Float32Array.from(ROWS.flatMap(wide)) };

describe('pack import and export', () => {
  it('an exported run, imported, answers every lookup the embedder makes for those texts', async () => {
    const bytes = await exportPack({
      model: refOfSpec(spec, { dtype }),
      kind: 'document',
      texts,
      matrix,
    });
    const store = new MemoryStore();
    const summary = await importPack(bytes, listModelSpecs(), store);
    expect(summary).toEqual({ imported: 3, rejected: {} });
    const keys = await vectorKeys(vectorKeyScope(spec, dtype, 'document'), texts);
    const hits = await store.getMany(keys);
    expect(hits.map((v) => (v ? Array.from(v) : null))).toEqual(
      ROWS.map((r) => wide(r.map(Math.fround))),
    );
    expect(describeImport('p.parquet', summary)).toBe('Imported 3 vectors from p.parquet.');
    expect(describeImport('one.parquet', { imported: 1, rejected: {} })).toBe(
      'Imported 1 vector from one.parquet.',
    );
  });

  it('reports what it skipped, and names the file after model and dtype', async () => {
    const rows = await readVectorPack(
      await exportPack({ model: refOfSpec(spec, { dtype }), kind: 'document', texts, matrix }),
    );
    rows[0] = { ...rows[0], scope: { ...rows[0].scope, revision: 'sha256:other' } };
    const store = new MemoryStore();
    const summary = await importPack(writeVectorPack(rows), listModelSpecs(), store);
    expect(summary).toEqual({ imported: 2, rejected: { 'other weights': 1 } });
    expect(store.map.size).toBe(2);
    expect(describeImport('p.parquet', summary)).toBe(
      'Imported 2 vectors from p.parquet; skipped 1 (other weights).',
    );
    expect(packFileName({ model: refOfSpec(spec, { dtype }) })).toBe(
      `memlens-vectors-tiny-bert-${dtype}.parquet`,
    );
  });
});

describe('pack import refuses bad vectors whole', () => {
  const ref = refOfSpec(spec, { dtype });
  const packOf = (vectors: Float32Array, dim = spec.dims) =>
    exportPack({
      model: ref,
      kind: 'document',
      texts: ['alpha', 'beta', 'gamma'],
      matrix: { dim, vectors },
    });
  const good = () =>
    Float32Array.from(
      [
        [1, 0],
        [0, 1],
        [0.6, 0.8],
      ].flatMap(wide),
    );

  it.each([
    [
      'finite',
      () => good().fill(Number.NaN, spec.dims, spec.dims + 1),
      /^row 1 fails the finite check \(number 0 is NaN\)/,
    ],
    [
      'zero',
      () => new Float32Array(3 * spec.dims),
      /^row 0 fails the not constant check \(every number is 0\)/,
    ],
    [
      'same rows',
      () =>
        Float32Array.from(
          [
            [1, 0],
            [1, 0],
            [1, 0],
          ].flatMap(wide),
        ),
      /^row 1 fails the not constant check \(the same numbers as row 0/,
    ],
    [
      'unit norm',
      () => good().map((v) => v * 2),
      /^row 0 fails the unit norm check \(length 2\.000/,
    ],
  ])('%s: names the row and the check, and stores nothing', async (_, vectors, message) => {
    const store = new MemoryStore();
    await expect(importPack(await packOf(vectors()), listModelSpecs(), store)).rejects.toThrow(
      message,
    );
    expect(store.map.size).toBe(0);
    expect(store.puts).toBe(0);
  });

  it("refuses vectors of another width than the labelled model's", async () => {
    const store = new MemoryStore();
    const narrow = Float32Array.from([1, 0, 0, 1, 0.6, 0.8]);
    await expect(importPack(await packOf(narrow, 2), listModelSpecs(), store)).rejects.toThrow(
      /^row 0 fails the dimension check \(2 numbers, not the model's 32\): the vectors were made by another model than the one named\. Nothing of the pack was kept; make it again with npm run embed:pack -- --model tiny-bert/,
    );
    expect(store.map.size).toBe(0);
  });
});
