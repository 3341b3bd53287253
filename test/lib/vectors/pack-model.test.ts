import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { getModelSpec, listModelSpecs } from '../../../src/lib/embed/model-registry.ts';
import { refOfSpec } from '../../../src/lib/embed/model-ref.ts';
import type { TextKind } from '../../../src/lib/embed/model-registry.ts';
import { packRowsOf, readVectorPack, writeVectorPack } from '../../../src/lib/vectors/pack.ts';
import { packModel, PickedPacks } from '../../../src/lib/vectors/pack-model.ts';

const tiny = refOfSpec(getModelSpec('tiny-bert'), { backend: 'node' });
const dim = tiny.spec.dims;

async function rowsOf(texts: string[], kind: TextKind, model = tiny) {
  const vectors = new Float32Array(texts.length * dim);
  texts.forEach((_, i) => (vectors[i * dim + (i % dim)] = 1));
  const hashes = await Promise.all(texts.map(sha256Hex));
  return packRowsOf(model, kind, hashes, { dim, vectors });
}

describe('packModel', () => {
  it("answers the protocol's texts from the pack, by the cache key, in the order asked", async () => {
    const rows = [...(await rowsOf(['a', 'b'], 'document')), ...(await rowsOf(['q'], 'query'))];
    // Through the file, as the CLI reads it.
    const pack = packModel(
      await readVectorPack(writeVectorPack(rows)),
      'pack:t.parquet',
      listModelSpecs(),
    );
    expect(pack.ref).toMatchObject({
      id: 'pack:t.parquet',
      revision: tiny.revision,
      dtype: 'fp32',
    });
    expect(pack.ref.spec).toMatchObject({
      dims: dim,
      pooling: 'mean',
      normalize: true,
      maxTokens: 128,
    });
    const m = await pack.embedder.embed(['b', 'a'], { kind: 'document' });
    expect(m.count).toBe(2);
    expect(m.vectors[dim + 0]).toBe(1);
    expect(m.vectors[1]).toBe(1);
    expect((await pack.embedder.embed(['q'], { kind: 'query' })).vectors[0]).toBe(1);
  });

  it('refuses texts it lacks, another kind, two models and other weights, naming the pack', async () => {
    const docs = await rowsOf(['a', 'b'], 'document');
    const pack = packModel(docs, 'pack:t.parquet', listModelSpecs());
    await expect(pack.embedder.embed(['a', 'c'], { kind: 'document' })).rejects.toThrow(
      /pack:t\.parquet: lacks vectors for 1 of 2 document texts of this benchmark \(e\.g\. "c"\)/,
    );
    await expect(pack.embedder.embed(['a'], { kind: 'query' })).rejects.toThrow(
      /pack:t\.parquet: has no query vectors/,
    );
    expect(() =>
      packModel(
        [...docs, ...docs.map((r) => ({ ...r, scope: { ...r.scope, model: 'other' } }))],
        'pack:t',
        [],
      ),
    ).toThrow(/holds the vectors of 2 models \(tiny-bert fp32, other fp32\)/);
    const forged = docs.map((r) => ({
      ...r,
      scope: { ...r.scope, revision: 'sha256:' + '0'.repeat(64) },
    }));
    expect(() => packModel(forged, 'pack:t', listModelSpecs())).toThrow(
      /its tiny-bert vectors are not what this site's tiny-bert computes \(2 rows: other weights\)/,
    );
    expect(() => packModel([], 'pack:t', [])).toThrow(/no vectors/);
  });

  it('keeps the packs a page picked by their reference, and names a file that is not one', async () => {
    const picked = new PickedPacks();
    const rows = await rowsOf(['a'], 'document');
    const pack = await picked.add('x.parquet', writeVectorPack(rows), listModelSpecs());
    expect(pack.ref.id).toBe('pack:x.parquet');
    expect(picked.get('pack:x.parquet')).toBe(pack);
    expect(picked.names).toEqual(['pack:x.parquet']);
    const text = new TextEncoder().encode('hello');
    await expect(picked.add('y.parquet', text.buffer, [])).rejects.toThrow(
      /pack:y\.parquet: not a Parquet file/,
    );
  });
});

describe('packModel refuses bad vectors, naming the pack, the row and the check', () => {
  it('a zero pack and a pack of the wrong width labelled tiny-bert', async () => {
    const rows = await rowsOf(['a', 'b'], 'document');
    const zero = rows.map((r) => ({ ...r, vector: new Float32Array(dim) }));
    expect(() => packModel(zero, 'pack:z.parquet', listModelSpecs())).toThrow(
      /^pack:z\.parquet: row 0 fails the not constant check \(every number is 0\)/,
    );
    const narrow = rows.map((r) => ({ ...r, vector: r.vector.slice(0, 16) }));
    const picked = new PickedPacks();
    await expect(
      picked.add('n.parquet', writeVectorPack(narrow), listModelSpecs()),
    ).rejects.toThrow(
      /^pack:n\.parquet: row 0 fails the dimension check \(16 numbers, not the model's 32\)/,
    );
    expect(picked.names).toEqual([]);
  });

  it("checks a model the site does not know against the pack's own width and pooling", async () => {
    const other = { ...tiny, id: 'other' };
    const rows = await rowsOf(['a', 'b'], 'document', other);
    expect(packModel(rows, 'pack:o', listModelSpecs()).rows).toBe(2);
    rows[1] = { ...rows[1], vector: rows[1].vector.map((v) => v * 3) };
    expect(() => packModel(rows, 'pack:o', listModelSpecs())).toThrow(
      /row 1 fails the unit norm check/,
    );
  });
});
