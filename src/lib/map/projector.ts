// Runs projections in the map worker, one at a time, and caches their results: in memory for the
// page's life and beside the vectors in the vector cache (the same IndexedDB store, under the
// projection's own key), so returning to a view does not project again. Aborting a projection
// terminates the worker; the next one starts a fresh worker.
import { errorMessage } from '../common/error-message.ts';
import {
  RpcClient,
  STEP_STALL_MS,
  type RpcClientOptions,
  type RpcWorker,
} from '../common/worker-rpc.ts';
import { timeoutMs } from '../embed/test-hooks.ts';
import type { VectorStore } from '../embed/vector-cache.ts';
import { projectionKey, type ProjectionProgress, type ProjectionRequest } from './projection.ts';
import type { MapMethods, Projected } from './worker-protocol.ts';

export type ProjectionSource = 'worker' | 'memory' | 'cache';

export interface Projection {
  coords: Float32Array;
  source: ProjectionSource;
  /** Time in the worker (0 when cached). */
  ms: number;
  key: string;
}

export interface ProjectOptions {
  signal?: AbortSignal;
  onProgress?: (p: ProjectionProgress) => void;
}

export interface MapProjectorOptions {
  /** In the page, a promise: the worker's script is checked before it runs. */
  createWorker: () => RpcWorker | Promise<RpcWorker>;
  /** The vector cache; null or failing: memory only. */
  store?: () => Promise<VectorStore | null>;
}

function abortError(): DOMException {
  return new DOMException('Projection was cancelled', 'AbortError');
}

const MAP_RPC: RpcClientOptions = {
  name: 'map worker',
  cancelled: abortError,
  stallMs: timeoutMs('worker-step', STEP_STALL_MS),
};

export class MapProjector {
  private rpc: RpcClient<MapMethods> | null = null;
  private readonly memory = new Map<string, Float32Array>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: MapProjectorOptions) {}

  private async cached(key: string): Promise<Float32Array | undefined> {
    const store = await this.options.store?.().catch(() => null);
    const [found] = (await store?.getMany([key]).catch(() => [undefined])) ?? [undefined];
    return found;
  }

  private async keep(key: string, coords: Float32Array): Promise<void> {
    this.memory.set(key, coords);
    const store = await this.options.store?.().catch(() => null);
    // A full or closed cache only costs the next visit a projection.
    await store?.putMany([{ key, vector: coords }]).catch(() => undefined);
  }

  /** The request's coordinates: from memory, the vector cache, or the worker (in that order). */
  project(request: ProjectionRequest, options: ProjectOptions = {}): Promise<Projection> {
    const run = this.queue.then(() => this.projectNow(request, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async projectNow(request: ProjectionRequest, options: ProjectOptions) {
    const { signal } = options;
    if (signal?.aborted) throw abortError();
    const key = await projectionKey(request);
    const inMemory = this.memory.get(key);
    if (inMemory) return { coords: inMemory, source: 'memory' as const, ms: 0, key };
    const stored = await this.cached(key);
    if (signal?.aborted) throw abortError();
    if (stored && stored.length === request.n * 2) {
      this.memory.set(key, stored);
      return { coords: stored, source: 'cache' as const, ms: 0, key };
    }
    const { coords, ms } = await this.inWorker(request, options);
    await this.keep(key, coords);
    return { coords, source: 'worker' as const, ms, key };
  }

  /** Projections run one at a time (the queue), so one worker is started at a time. */
  private async client(): Promise<RpcClient<MapMethods>> {
    if (this.rpc && !this.rpc.stopped) return this.rpc;
    this.rpc = new RpcClient<MapMethods>(await this.options.createWorker(), MAP_RPC);
    return this.rpc;
  }

  private async inWorker(
    request: ProjectionRequest,
    { signal, onProgress }: ProjectOptions,
  ): Promise<Projected> {
    const rpc = await this.client();
    if (signal?.aborted) throw abortError();
    // A copy goes over: the page keeps its vectors.
    const answer = rpc.call('project', request, { signal, onProgress });
    // The call has its cancel sent and rejected first; a projection never yields, so its worker goes.
    const onAbort = () => this.stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await answer;
    } catch (error) {
      if (signal?.aborted) throw abortError();
      throw new Error(`projection failed: ${errorMessage(error)}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Terminates the worker; a projection still open on it fails. */
  private stop(): void {
    this.rpc?.terminate();
    this.rpc = null;
  }

  dispose(): void {
    this.stop();
    this.memory.clear();
  }
}
