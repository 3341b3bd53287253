// A tiny-bert fp32 site pack of given texts and vectors, with its index entry: the site-packs and
// Playground tests serve it.
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import type { ModelSpec } from '../../../src/lib/embed/model-registry.ts';
import { refOfSpec } from '../../../src/lib/embed/model-ref.ts';
import { packRowsOf, writeVectorPack } from '../../../src/lib/vectors/pack.ts';
import { sitePackFile, type SitePackEntry } from '../../../src/lib/vectors/site-packs.ts';

/** `count` rows of `dim` numbers `at(i)` (i over the whole matrix), each scaled to unit length. */
export function unitRows(count: number, dim: number, at: (i: number) => number): Float32Array {
  const out = Float32Array.from({ length: count * dim }, (_, i) => at(i));
  for (let r = 0; r < count; r++) {
    const row = out.subarray(r * dim, (r + 1) * dim);
    const norm = Math.hypot(...row);
    row.forEach((v, j) => (row[j] = v / norm));
  }
  return out;
}

export async function sitePackFixture(
  spec: ModelSpec,
  texts: readonly string[],
  vectors: Float32Array,
  protocols: string[] = ['inmind-figure4'],
): Promise<{ bytes: ArrayBuffer; entry: SitePackEntry }> {
  const hashes = await Promise.all(texts.map(sha256Hex));
  const bytes = writeVectorPack(
    packRowsOf(refOfSpec(spec, { dtype: 'fp32' }), 'document', hashes, {
      dim: spec.dims,
      vectors,
    }),
  );
  const entry: SitePackEntry = {
    model: 'tiny-bert',
    dtype: 'fp32',
    revision: 'sha256:x',
    file: sitePackFile('tiny-bert', 'fp32'),
    sha256: await sha256Hex(new Uint8Array(bytes)),
    bytes: bytes.byteLength,
    rows: texts.length,
    dim: spec.dims,
    protocols,
    inputs: 'a'.repeat(64),
  };
  return { bytes, entry };
}
