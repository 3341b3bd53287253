// UMAP (umap-js) to two dimensions, seeded: the same vectors, seed and settings give the same
// layout in Node and every browser. Epochs run one at a time so progress can be reported.
import { UMAP } from 'umap-js';
import { seededRandom } from '../analysis/seeded-random.ts';

export interface UmapParams {
  seed: number;
  nNeighbors: number;
  minDist: number;
  /** 0: umap-js's own choice (500 epochs up to 10,000 points, 200 beyond). */
  nEpochs: number;
}

export const UMAP_DEFAULTS: Readonly<UmapParams> = Object.freeze({
  seed: 42,
  nNeighbors: 15,
  minDist: 0.1,
  nEpochs: 200,
});

export interface EpochProgress {
  epoch: number;
  epochs: number;
}

function rowsOf(vectors: Float32Array, n: number, dim: number): number[][] {
  if (vectors.length !== n * dim)
    throw new RangeError(`UMAP: ${vectors.length} values are not ${n} rows × ${dim}`);
  return Array.from({ length: n }, (_, i) => Array.from(vectors.subarray(i * dim, (i + 1) * dim)));
}

/** [x0, y0, x1, y1, …]; fewer than 3 rows are laid on a line (UMAP needs neighbours). */
export function umap2(
  vectors: Float32Array,
  n: number,
  dim: number,
  params: UmapParams = UMAP_DEFAULTS,
  onEpoch?: (p: EpochProgress) => void,
): Float32Array {
  const data = rowsOf(vectors, n, dim);
  if (n < 3) return Float32Array.from(data.flatMap((_, i) => [i, 0]));
  const umap = new UMAP({
    nComponents: 2,
    nNeighbors: Math.max(2, Math.min(params.nNeighbors, n - 1)),
    minDist: params.minDist,
    nEpochs: params.nEpochs > 0 ? params.nEpochs : undefined,
    random: seededRandom(params.seed),
  });
  const epochs = umap.initializeFit(data);
  for (let epoch = 0; epoch < epochs; epoch++) {
    umap.step();
    onEpoch?.({ epoch: epoch + 1, epochs });
  }
  return Float32Array.from(umap.getEmbedding().flat());
}
