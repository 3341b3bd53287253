// Messages between the page and src/workers/map-worker.ts: one projection per worker at a time.
// Cancelling is terminating the worker (a projection never yields), so there is no cancel message.
import {
  isProjectionMethod,
  type ProjectionProgress,
  type ProjectionRequest,
} from './projection.ts';

export interface ProjectMessage {
  type: 'project';
  id: number;
  request: ProjectionRequest;
}

export type FromMapWorker =
  | { type: 'progress'; id: number; progress: ProjectionProgress }
  | { type: 'projected'; id: number; coords: Float32Array; ms: number }
  | { type: 'error'; id: number; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks what arrives over postMessage before the worker trusts it. */
export function isProjectMessage(value: unknown): value is ProjectMessage {
  if (!isRecord(value) || value.type !== 'project' || typeof value.id !== 'number') return false;
  const r = value.request;
  return (
    isRecord(r) &&
    typeof r.method === 'string' &&
    isProjectionMethod(r.method) &&
    typeof r.n === 'number' &&
    typeof r.dim === 'number' &&
    r.vectors instanceof Float32Array &&
    isRecord(r.umap)
  );
}

export function isFromMapWorker(value: unknown): value is FromMapWorker {
  if (!isRecord(value) || typeof value.id !== 'number') return false;
  if (value.type === 'progress') return isRecord(value.progress);
  if (value.type === 'projected') return value.coords instanceof Float32Array;
  return value.type === 'error' && typeof value.message === 'string';
}
