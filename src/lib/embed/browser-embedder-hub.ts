import type { BrowserEmbedderOptions } from './browser-embedder.ts';
import { EmbedderHub } from './embedder-hub.ts';
import { VectorCache } from './vector-cache.ts';

/** What only the page can give: its base URL, the worker and where ORT's wasm is served. */
export type BrowserHubParts = Pick<BrowserEmbedderOptions, 'createWorker' | 'wasmPaths'> & {
  siteBase: string;
};

/** The browser's hub: worker-backed embedders over the IndexedDB vector cache. */
export function createBrowserEmbedderHub(parts: BrowserHubParts): EmbedderHub {
  const hub: EmbedderHub = new EmbedderHub({
    openStore: () => VectorCache.open(),
    create: async (request, store, onLoad) => {
      // Loaded with the first model, off the first screen's path.
      const { BrowserEmbedder } = await import('./browser-embedder.ts');
      const embedder = new BrowserEmbedder({
        ...parts,
        cache: store,
        onCacheDropped: (message) => hub.cacheDropped.set(message),
        maxBatch: request.maxBatch,
        tokenBudget: request.tokenBudget,
      });
      try {
        await embedder.load(request.model, {
          failWebgpuProbe: request.failWebgpuProbe,
          perturbProbe: request.perturbProbe,
          onProgress: onLoad,
        });
      } catch (err) {
        await embedder.dispose();
        throw err;
      }
      return embedder;
    },
  });
  return hub;
}
