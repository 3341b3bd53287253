// The site's module workers. `?worker&url` has Vite bundle each worker (as one file: the worker
// chunks import nothing) and give its URL; the page checks the script against the build's sha256
// and runs exactly those bytes from a blob: URL, first visit included (lib/offline/checked-assets.ts).
import embedWorkerUrl from '../workers/embed-worker.ts?worker&url';
import mapWorkerUrl from '../workers/map-worker.ts?worker&url';
import { checkedModuleWorker } from '../lib/offline/checked-assets.ts';

export function createEmbedWorker(): Promise<Worker> {
  return checkedModuleWorker(embedWorkerUrl, 'memlens-embed');
}

export function createMapWorker(): Promise<Worker> {
  return checkedModuleWorker(mapWorkerUrl, 'memlens-map');
}
