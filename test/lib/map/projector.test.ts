import { afterEach, describe, expect, it } from 'vitest';
import { MapProjector } from '../../../src/lib/map/projector.ts';
import { projectionRequest, runProjection } from '../../../src/lib/map/projection.ts';
import { isProjectionRequest, type MapMethods } from '../../../src/lib/map/worker-protocol.ts';
import type { VectorStore } from '../../../src/lib/embed/vector-cache.ts';
import { serveRpc, type RpcWorker } from '../../../src/lib/common/worker-rpc.ts';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach(({ port1, port2 }) => (port1.close(), port2.close())));

/** The worker in-process: the RPC's server on a MessageChannel answers each projection, or holds it. */
class InProcessWorker implements RpcWorker {
  terminated = false;
  posted = 0;
  private readonly channel = new MessageChannel();
  constructor(private readonly hold = false) {
    channels.push(this.channel);
    serveRpc<MapMethods>(
      this.channel.port2,
      {
        project: (request, { progress }) => {
          if (this.hold) return new Promise<never>(() => undefined);
          progress({ done: 1, total: 1 });
          return { coords: runProjection(request), ms: 1 };
        },
      },
      { accepts: { project: isProjectionRequest } },
    );
  }
  addEventListener(type: 'message' | 'error', listener: (event: MessageEvent) => void): void {
    if (type === 'message') this.channel.port1.addEventListener('message', listener);
  }
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void {
    this.channel.port1.removeEventListener(type, listener);
  }
  postMessage(message: unknown, options: { transfer: Transferable[] }): void {
    this.posted++;
    this.channel.port1.postMessage(message, options);
  }
  terminate(): void {
    this.terminated = true;
    this.channel.port1.close();
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
    // Abort once the projection is in the worker (under load 10 ms was not always enough).
    while (!(workers[0]?.posted > 0)) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toThrow(/cancelled/);
    expect(workers[0].terminated).toBe(true);
    hold = false;
    expect((await projector.project(request())).source).toBe('worker');
    expect(workers).toHaveLength(2);
  });
});
