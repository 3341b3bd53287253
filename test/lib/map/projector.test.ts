import { describe, expect, it } from 'vitest';
import { MapProjector, type MapWorkerLike } from '../../../src/lib/map/projector.ts';
import { projectionRequest, runProjection } from '../../../src/lib/map/projection.ts';
import { isProjectMessage, type FromMapWorker } from '../../../src/lib/map/worker-protocol.ts';
import type { VectorStore } from '../../../src/lib/embed/vector-cache.ts';

/** The worker's loop in-process: answers each project message on the next tick, or holds it. */
class InProcessWorker implements MapWorkerLike {
  terminated = false;
  posted = 0;
  private listener: ((event: Event) => void) | null = null;
  constructor(private readonly hold = false) {}
  addEventListener(type: 'message' | 'error', listener: (event: Event) => void): void {
    if (type === 'message') this.listener = listener;
  }
  postMessage(message: unknown): void {
    this.posted++;
    if (!isProjectMessage(message) || this.hold) return;
    const { id, request } = message;
    setTimeout(() => {
      const emit = (data: FromMapWorker) => this.listener?.(new MessageEvent('message', { data }));
      emit({ type: 'progress', id, progress: { done: 1, total: 1 } });
      emit({ type: 'projected', id, coords: runProjection(request), ms: 1 });
    });
  }
  terminate(): void {
    this.terminated = true;
  }
}

class MemoryStore implements VectorStore {
  readonly map = new Map<string, Float32Array>();
  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.map.get(k));
  }
  async putMany(entries: readonly { key: string; vector: Float32Array }[]) {
    for (const e of entries) this.map.set(e.key, e.vector);
  }
}

const request = () => projectionRequest('pca', Float32Array.from([1, 0, 0, 1, 1, 1]), 3, 2);

describe('MapProjector', () => {
  it('projects in the worker once, then answers from memory, and from the store after a reload', async () => {
    const store = new MemoryStore();
    const workers: InProcessWorker[] = [];
    const make = () =>
      new MapProjector({
        createWorker: () => {
          workers.push(new InProcessWorker());
          return workers[workers.length - 1];
        },
        store: async () => store,
      });
    const projector = make();
    const progress: number[] = [];
    const first = await projector.project(request(), { onProgress: (p) => progress.push(p.done) });
    expect(first.source).toBe('worker');
    expect(progress).toEqual([1]);
    expect(store.map.get(first.key)).toEqual(first.coords);
    expect((await projector.project(request())).source).toBe('memory');
    const again = await make().project(request());
    expect(again.source).toBe('cache');
    expect(Array.from(again.coords)).toEqual(Array.from(first.coords));
    expect(workers).toHaveLength(1);
  });

  it('terminates the worker when aborted, and starts a fresh one for the next projection', async () => {
    const workers: InProcessWorker[] = [];
    let hold = true;
    const projector = new MapProjector({
      createWorker: () => {
        workers.push(new InProcessWorker(hold));
        return workers[workers.length - 1];
      },
    });
    const controller = new AbortController();
    const pending = projector.project(request(), { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(pending).rejects.toThrow(/cancelled/);
    expect(workers[0].terminated).toBe(true);
    hold = false;
    expect((await projector.project(request())).source).toBe('worker');
    expect(workers).toHaveLength(2);
  });
});
