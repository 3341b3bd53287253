// A bag-of-words embedder and a hub over it: enough to check plumbing, not a model.
import type { EmbedKind, EmbeddingMatrix } from '../../../src/lib/embed/embedder.ts';
import {
  EmbedderHub,
  type EmbedderRequest,
  type LoadedEmbedder,
} from '../../../src/lib/embed/embedder-hub.ts';
import type { BrowserEmbedOptions } from '../../../src/lib/embed/browser-embedder.ts';
import { getModelSpec, type ModelSpec } from '../../../src/lib/embed/model-registry.ts';

export const VOCAB = ['allergy', 'nut', 'macaron', 'almond', 'cat', 'visa'];

/** Runs in flight over every embedder that shares it, and the most seen at once. */
export class Concurrency {
  running = 0;
  max = 0;
}

export class FakeEmbedder implements LoadedEmbedder {
  readonly spec: ModelSpec;
  readonly backend = 'node' as const;
  readonly report = null;
  calls: { texts: string[]; kind: EmbedKind }[] = [];
  running = 0;
  maxRunning = 0;
  disposed = false;

  constructor(
    modelId = 'tiny-bert',
    private readonly delayMs = 1,
    private readonly shared = new Concurrency(),
  ) {
    this.spec = { ...getModelSpec(modelId), dims: VOCAB.length };
  }

  async embed(texts: readonly string[], opts: BrowserEmbedOptions): Promise<EmbeddingMatrix> {
    this.running++;
    this.shared.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    this.shared.max = Math.max(this.shared.max, this.shared.running);
    try {
      this.calls.push({ texts: [...texts], kind: opts.kind });
      await new Promise((r) => setTimeout(r, this.delayMs));
      opts.signal?.throwIfAborted();
      const dim = VOCAB.length;
      const vectors = new Float32Array(texts.length * dim);
      texts.forEach((t, i) =>
        VOCAB.forEach((w, j) => (vectors[i * dim + j] = t.includes(w) ? 1 : 0)),
      );
      return { dim, count: texts.length, vectors };
    } finally {
      this.running--;
      this.shared.running--;
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

/**
 * A hub whose `create` makes FakeEmbedders (or fails for ids in `failing`), recording each;
 * with `loadBytes`, a load reports half of them, then all, as a model download does.
 */
export function fakeHub(
  options: { keep?: number; failing?: string[]; delayMs?: number; loadBytes?: number } = {},
) {
  const made: { request: EmbedderRequest; embedder: FakeEmbedder }[] = [];
  const concurrency = new Concurrency();
  const hub = new EmbedderHub({
    keep: options.keep,
    create: async (request, _store, onLoad) => {
      const bytes = options.loadBytes;
      if (bytes) {
        onLoad?.({ loaded: bytes / 2, total: bytes, file: 'onnx/model.onnx' });
        await new Promise((r) => setTimeout(r, 5));
        onLoad?.({ loaded: bytes, total: bytes, file: 'onnx/model.onnx' });
      }
      if (options.failing?.includes(request.model.id)) {
        throw new Error(`cannot load ${request.model.id}`);
      }
      const embedder = new FakeEmbedder(request.model.id, options.delayMs, concurrency);
      made.push({ request, embedder });
      return embedder;
    },
  });
  return { hub, made, concurrency };
}
