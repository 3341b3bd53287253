// The site's module workers. `new Worker(new URL(…, import.meta.url))` is how Vite finds and
// bundles a worker, so these constructors live here, apart from the Node-usable core.

export function createEmbedWorker(): Worker {
  return new Worker(new URL('../workers/embed-worker.ts', import.meta.url), {
    type: 'module',
    name: 'memlens-embed',
  });
}

export function createMapWorker(): Worker {
  return new Worker(new URL('../workers/map-worker.ts', import.meta.url), {
    type: 'module',
    name: 'memlens-map',
  });
}
