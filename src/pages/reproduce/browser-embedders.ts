import type { DeviceChoice } from '../../lib/embed/backend-choice.ts';
import { BrowserEmbedder } from '../../lib/embed/browser-embedder.ts';
import { VectorCache } from '../../lib/embed/vector-cache.ts';
import type { EmbedderFactory } from '../../lib/protocols/pool.ts';

/**
 * The page's `EmbedderFactory`: the worker-backed BrowserEmbedder on the chosen device, with the
 * IndexedDB vector cache the Embeddings page fills (so vectors made there are reused here).
 */
export function browserEmbedders(device: DeviceChoice): {
  factory: EmbedderFactory;
  close: () => void;
} {
  const cache = VectorCache.open().catch(() => null);
  return {
    factory: async (modelId) => {
      const embedder = new BrowserEmbedder({ cache: await cache });
      await embedder.load(modelId, { device });
      return embedder;
    },
    close: () => void cache.then((c) => c?.close()),
  };
}
