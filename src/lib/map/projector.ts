// Runs projections in the map worker, one at a time, and caches their results: in memory for the
// page's life and beside the vectors in the vector cache (the same IndexedDB store, under the
// projection's own key), so returning to a view does not project again. Aborting a projection
// terminates the worker; the next one starts a fresh worker.
import type { VectorStore } from '../embed/vector-cache.ts';
import { projectionKey, type ProjectionProgress, type ProjectionRequest } from './projection.ts';
import { isFromMapWorker, type FromMapWorker } from './worker-protocol.ts';

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

/** The part of a Worker the projector uses (a real one in the page, an in-process one in tests). */
export interface MapWorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message' | 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

export interface MapProjectorOptions {
  /** In the page, a promise: the worker's script is checked before it runs. */
  createWorker: () => MapWorkerLike | Promise<MapWorkerLike>;
  /** The vector cache; null or failing: memory only. */
  store?: () => Promise<VectorStore | null>;
}

function abortError(): DOMException {
  return new DOMException('Projection was cancelled', 'AbortError');
}

export class MapProjector {
  private worker: MapWorkerLike | null = null;
  private starting: Promise<MapWorkerLike> | null = null;
  private nextId = 1;
  private readonly memory = new Map<string, Float32Array>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly pending = new Map<number, (message: FromMapWorker) => void>();

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

  private async workerFor(): Promise<MapWorkerLike> {
    if (this.worker) return this.worker;
    this.starting ??= Promise.resolve(this.options.createWorker()).finally(() => {
      this.starting = null;
    });
    const worker = await this.starting;
    if (this.worker) return this.worker;
    worker.addEventListener('message', (event) => {
      if (!(event instanceof MessageEvent)) return;
      const message: unknown = event.data;
      if (isFromMapWorker(message)) this.pending.get(message.id)?.(message);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const said = 'message' in event && typeof event.message === 'string' ? event.message : '';
      const failed = `map worker failed: ${said || 'script error'}`;
      const waiting = [...this.pending];
      this.stop();
      for (const [id, listener] of waiting) listener({ type: 'error', id, message: failed });
    });
    this.worker = worker;
    return worker;
  }

  private async inWorker(
    request: ProjectionRequest,
    { signal, onProgress }: ProjectOptions,
  ): Promise<{ coords: Float32Array; ms: number }> {
    const worker = await this.workerFor();
    if (signal?.aborted) throw abortError();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const finish = (end: () => void) => {
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        end();
      };
      const onAbort = () => {
        this.stop();
        finish(() => reject(abortError()));
      };
      signal?.addEventListener('abort', onAbort);
      this.pending.set(id, (message) => {
        if (message.type === 'progress') onProgress?.(message.progress);
        else if (message.type === 'projected')
          finish(() => resolve({ coords: message.coords, ms: message.ms }));
        else finish(() => reject(new Error(`projection failed: ${message.message}`)));
      });
      // A copy goes over: the page keeps its vectors.
      worker.postMessage({ type: 'project', id, request }, []);
    });
  }

  /** Terminates the worker; what was pending on it is dropped (its callers were aborted). */
  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
    this.pending.clear();
  }

  dispose(): void {
    this.stop();
    this.memory.clear();
  }
}
