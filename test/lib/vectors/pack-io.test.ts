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
const matrix = { dim: 2, vectors: Float32Array.of(1, 0, 0, 1, 1, 0, 0.6, 0.8) };

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
    expect(hits.map((v) => (v ? Array.from(v) : null))).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
      [0.6000000238418579, 0.800000011920929],
    ]);
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
