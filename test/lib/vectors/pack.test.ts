import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { getModelSpec, listModelSpecs } from '../../../src/lib/embed/model-registry.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { vectorKey, vectorKeyScope } from '../../../src/lib/embed/vector-cache-key.ts';
import {
  matrixFromPack,
  VectorPackError,
  checkPack,
  packRowsOf,
  readVectorPack,
  writeVectorPack,
  type PackRow,
} from '../../../src/lib/vectors/pack.ts';
import { refOfSpec } from '../../../src/lib/embed/model-ref.ts';

const spec = getModelSpec('tiny-bert');
const dtype = spec.dtypes[0];
const texts = ['first memory', 'second memory', 'first memory', 'a query'];

async function sample(): Promise<PackRow[]> {
  const hashes = await Promise.all(texts.map(sha256Hex));
  const dim = 3;
  const vectors = Float32Array.from({ length: texts.length * dim }, (_, i) => Math.sin(i) / 3);
  return packRowsOf(refOfSpec(spec, { dtype }), 'document', hashes, { dim, vectors });
}

describe('vector packs', () => {
  it('round-trip every field and every float exactly, one row per scope and text', async () => {
    const rows = await sample();
    const back = await readVectorPack(writeVectorPack(rows));
    expect(back).toHaveLength(3);
    expect(back).toEqual([rows[0], rows[1], rows[3]]);
    expect(back[0].scope).toEqual(vectorKeyScope(spec, dtype, 'document'));
    expect(back[0].textSha256).toBe(await sha256Hex('first memory'));
  });

  it('are keyed exactly as the vector cache keys the same text', async () => {
    const rows = await sample();
    const { accepted, rejected } = checkPack(rows, listModelSpecs());
    expect(rejected).toEqual({});
    const scope = vectorKeyScope(spec, dtype, 'document');
    expect(accepted.map((a) => a.key)).toEqual([
      vectorKey(scope, await sha256Hex('first memory')),
      vectorKey(scope, await sha256Hex('second memory')),
      vectorKey(scope, await sha256Hex('a query')),
    ]);
    expect(accepted[1].vector).toEqual(rows[1].vector);
  });

  it('refuses rows another model, weights, pooling or prefix would have produced', async () => {
    const [row] = await sample();
    const variant = (patch: Partial<PackRow['scope']>, kind = row.kind): PackRow => ({
      ...row,
      kind,
      scope: { ...row.scope, ...patch },
    });
    const { accepted, rejected } = checkPack(
      [
        variant({ model: 'nope' }),
        variant({ revision: 'sha256:0000' }),
        variant({ pooling: 'cls@512' }),
        variant({ prefix: 'query: ' }),
        variant({ dtype: 'q4' }),
      ],
      listModelSpecs(),
    );
    expect(accepted).toEqual([]);
    expect(rejected).toEqual({
      'unknown model': 1,
      'other weights': 1,
      'other pooling': 1,
      'other prefix': 1,
      'unknown dtype': 1,
    });
  });

  it('names what is wrong with a file that is not a pack', async () => {
    await expect(readVectorPack(new Uint8Array([1, 2, 3]).buffer)).rejects.toThrow(VectorPackError);
    const other = parquetWriteBuffer({ columnData: [{ name: 'a', data: [1], type: 'INT32' }] });
    await expect(readVectorPack(other)).rejects.toThrow(/not a MemLens vector pack/);
  });

  it('checks that each text has one vector', () => {
    expect(() =>
      packRowsOf(refOfSpec(spec, { dtype }), 'query', ['a'.repeat(64)], {
        dim: 2,
        vectors: new Float32Array(4),
      }),
    ).toThrow(RangeError);
  });
});

describe('matrixFromPack', () => {
  it('lays the rows out in order and reports every text done and cached at once', () => {
    const seen: unknown[] = [];
    const m = matrixFromPack([[1, 2], new Float32Array([3, 4]), [5, 6]], 2, {
      onProgress: (p) => seen.push(p),
    });
    expect(m).toMatchObject({ dim: 2, count: 3 });
    expect([...m.vectors]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen).toEqual([{ done: 3, total: 3, cached: 3, textsPerSecond: 0, etaSeconds: 0 }]);
  });
});
