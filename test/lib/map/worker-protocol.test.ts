import { describe, expect, it } from 'vitest';
import { isProjectionRequest } from '../../../src/lib/map/worker-protocol.ts';
import { projectionRequest } from '../../../src/lib/map/projection.ts';

describe('map worker messages', () => {
  it('accepts a well-formed projection request and refuses anything else', () => {
    const request = projectionRequest('umap', new Float32Array(4), 2, 2);
    expect(isProjectionRequest(request)).toBe(true);
    expect(isProjectionRequest({ ...request, method: 'tsne' })).toBe(false);
    expect(isProjectionRequest({ ...request, vectors: [1, 2] })).toBe(false);
    expect(isProjectionRequest(null)).toBe(false);
  });
});
