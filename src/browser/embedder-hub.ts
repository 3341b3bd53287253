import { createBrowserEmbedderHub } from '../lib/embed/browser-embedder-hub.ts';
import type { EmbedderHub } from '../lib/embed/embedder-hub.ts';
import { ortWasmPaths } from './ort-assets.ts';
import { createEmbedWorker } from './workers.ts';

/** The page's embedder hub: the embedding worker and ORT's wasm as this site serves them. */
export function siteEmbedderHub(siteBase: string): EmbedderHub {
  return createBrowserEmbedderHub({
    siteBase,
    createWorker: createEmbedWorker,
    wasmPaths: ortWasmPaths,
  });
}
