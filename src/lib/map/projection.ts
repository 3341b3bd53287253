// One projection request as plain data (what the map worker receives), the function that runs
// it, and the key its result is cached under.
import { sha256Hex } from '../common/sha256.ts';
import { pca2 } from './pca.ts';
import { UMAP_DEFAULTS, umap2, type UmapParams } from './umap.ts';

export const PROJECTION_METHODS = ['pca', 'umap'] as const;
export type ProjectionMethod = (typeof PROJECTION_METHODS)[number];

export function isProjectionMethod(value: string): value is ProjectionMethod {
  return (PROJECTION_METHODS as readonly string[]).includes(value);
}

export const METHOD_LABELS: Record<ProjectionMethod, string> = {
  pca: 'PCA (fast)',
  umap: 'UMAP (seeded)',
};

export interface ProjectionRequest {
  method: ProjectionMethod;
  /** UMAP's settings; PCA has none. */
  umap: UmapParams;
  n: number;
  dim: number;
  /** n rows of dim values, row-major (unit vectors: memories first, then queries). */
  vectors: Float32Array;
}

export interface ProjectionProgress {
  done: number;
  total: number;
}

export function projectionRequest(
  method: ProjectionMethod,
  vectors: Float32Array,
  n: number,
  dim: number,
  umap: UmapParams = UMAP_DEFAULTS,
): ProjectionRequest {
  return { method, umap, n, dim, vectors };
}

/** [x0, y0, x1, y1, …], one pair per row. */
export function runProjection(
  request: ProjectionRequest,
  onProgress?: (p: ProjectionProgress) => void,
): Float32Array {
  const { method, vectors, n, dim } = request;
  if (method === 'pca') {
    const { coords } = pca2(vectors, n, dim);
    onProgress?.({ done: 1, total: 1 });
    return coords;
  }
  return umap2(vectors, n, dim, request.umap, (p) =>
    onProgress?.({ done: p.epoch, total: p.epochs }),
  );
}

/** What the result depends on: the method, its settings, and the very vectors (by sha256). */
export async function projectionKey(request: ProjectionRequest): Promise<string> {
  const { method, umap, n, dim, vectors } = request;
  const bytes = new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const params = method === 'umap' ? [umap.seed, umap.nNeighbors, umap.minDist, umap.nEpochs] : [];
  return JSON.stringify(['map/v1', method, params, n, dim, await sha256Hex(bytes)]);
}
