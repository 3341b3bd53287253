import { describe, expect, it } from 'vitest';
import {
  projectionKey,
  projectionRequest,
  runProjection,
} from '../../../src/lib/map/projection.ts';
import { pca2 } from '../../../src/lib/map/pca.ts';

const vectors = Float32Array.from([1, 0, 0, 1, 0.5, 0.5, -1, 0.2]);

describe('projection', () => {
  it('runs PCA by default and UMAP with its epochs as progress', () => {
    const pca = runProjection(projectionRequest('pca', vectors, 4, 2));
    expect(Array.from(pca)).toEqual(Array.from(pca2(vectors, 4, 2).coords));
    const seen: number[] = [];
    const umap = { seed: 1, nNeighbors: 2, minDist: 0.1, nEpochs: 10 };
    runProjection(projectionRequest('umap', vectors, 4, 2, umap), (p) => seen.push(p.done));
    expect(seen.at(-1)).toBe(10);
  });

  it('keys on method, UMAP settings and the vectors themselves', async () => {
    const base = await projectionKey(projectionRequest('pca', vectors, 4, 2));
    expect(await projectionKey(projectionRequest('pca', vectors.slice(), 4, 2))).toBe(base);
    expect(await projectionKey(projectionRequest('umap', vectors, 4, 2))).not.toBe(base);
    const changed = vectors.slice();
    changed[3] = 0.999;
    expect(await projectionKey(projectionRequest('pca', changed, 4, 2))).not.toBe(base);
    const u = { seed: 1, nNeighbors: 2, minDist: 0.1, nEpochs: 10 };
    expect(await projectionKey(projectionRequest('umap', vectors, 4, 2, u))).not.toBe(
      await projectionKey(projectionRequest('umap', vectors, 4, 2, { ...u, seed: 2 })),
    );
  });
});
