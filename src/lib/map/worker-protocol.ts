// The map worker's method map (lib/common/worker-rpc.ts carries it) and the check of what it is
// sent. Cancelling is terminating the worker (a projection never yields), so no handler reads
// its signal.
import {
  isProjectionMethod,
  type ProjectionProgress,
  type ProjectionRequest,
} from './projection.ts';

export interface Projected {
  /** [x0, y0, x1, y1, …]; its buffer moves to the page. */
  coords: Float32Array;
  /** Time in the worker. */
  ms: number;
}

export interface MapMethods {
  project: { params: ProjectionRequest; result: Projected; progress: ProjectionProgress };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks what arrives over postMessage before the worker trusts it. */
export function isProjectionRequest(value: unknown): value is ProjectionRequest {
  return (
    isRecord(value) &&
    typeof value.method === 'string' &&
    isProjectionMethod(value.method) &&
    typeof value.n === 'number' &&
    typeof value.dim === 'number' &&
    value.vectors instanceof Float32Array &&
    isRecord(value.umap)
  );
}
