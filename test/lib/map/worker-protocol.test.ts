import { describe, expect, it } from 'vitest';
import { isFromMapWorker, isProjectMessage } from '../../../src/lib/map/worker-protocol.ts';
import { projectionRequest } from '../../../src/lib/map/projection.ts';

describe('map worker messages', () => {
  it('accepts a well-formed project message and refuses anything else', () => {
    const request = projectionRequest('umap', new Float32Array(4), 2, 2);
    expect(isProjectMessage({ type: 'project', id: 1, request })).toBe(true);
    expect(
      isProjectMessage({ type: 'project', id: 1, request: { ...request, method: 'tsne' } }),
    ).toBe(false);
    expect(
      isProjectMessage({ type: 'project', id: 1, request: { ...request, vectors: [1, 2] } }),
    ).toBe(false);
    expect(isProjectMessage(null)).toBe(false);
  });

  it('recognises the worker’s replies', () => {
    expect(isFromMapWorker({ type: 'projected', id: 1, coords: new Float32Array(2), ms: 1 })).toBe(
      true,
    );
    expect(isFromMapWorker({ type: 'progress', id: 1, progress: { done: 1, total: 2 } })).toBe(
      true,
    );
    expect(isFromMapWorker({ type: 'error', id: 1, message: 'x' })).toBe(true);
    expect(isFromMapWorker({ type: 'projected', id: 1, coords: [0, 0] })).toBe(false);
  });
});
