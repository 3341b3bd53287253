// Save for offline, models included: the page reads each model file the site serves and the
// service worker keeps it as it passes (its models route), so the save survives the worker being
// stopped between files and needs no message protocol of its own.
import { cacheNamesOf } from './routes.ts';
import type { PrecacheManifest } from './precache.ts';

export interface ModelFileToSave {
  url: string;
  bytes: number;
}

export interface SaveProgress {
  doneBytes: number;
  totalBytes: number;
}

/** Every model file of the manifest that the models' cache does not hold yet, as absolute URLs. */
export async function unsavedModelFiles(
  manifest: Pick<PrecacheManifest, 'models' | 'version' | 'modelsVersion'>,
  scope: string,
  held: (url: string, cacheName: string) => Promise<boolean>,
): Promise<ModelFileToSave[]> {
  const cacheName = cacheNamesOf(manifest).models;
  const files = manifest.models.flatMap((m) => m.files);
  const missing: ModelFileToSave[] = [];
  for (const f of files) {
    const url = new URL(f.url, scope).href;
    if (!(await held(url, cacheName))) missing.push({ url, bytes: f.bytes });
  }
  return missing;
}

async function readWhole(res: Response, onBytes: (n: number) => void): Promise<void> {
  if (!res.body) {
    onBytes((await res.arrayBuffer()).byteLength);
    return;
  }
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onBytes(value.length);
  }
}

/** Reads each file whole, in order; stops at the first failure or when `signal` aborts. */
export async function saveModelFiles(
  files: readonly ModelFileToSave[],
  opts: {
    fetchImpl?: typeof fetch;
    signal: AbortSignal;
    onProgress: (p: SaveProgress) => void;
  },
): Promise<void> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const progress: SaveProgress = {
    doneBytes: 0,
    totalBytes: files.reduce((s, f) => s + f.bytes, 0),
  };
  opts.onProgress({ ...progress });
  for (const f of files) {
    const res = await fetchImpl(f.url, { signal: opts.signal });
    if (!res.ok) throw new Error(`${new URL(f.url).pathname} answered HTTP ${res.status}`);
    await readWhole(res, (n) => {
      progress.doneBytes += n;
      opts.onProgress({ ...progress });
    });
  }
}

function fieldsOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function isModelFile(value: unknown): value is ModelFileToSave {
  const f = fieldsOf(value);
  return f !== null && typeof f.url === 'string' && typeof f.bytes === 'number';
}

function modelListing(value: unknown): PrecacheManifest['models'][number] | null {
  const m = fieldsOf(value);
  if (!m || typeof m.id !== 'string' || !Array.isArray(m.files)) return null;
  const files: unknown[] = m.files;
  return files.every(isModelFile) ? { id: m.id, files } : null;
}

/** The part of a manifest this needs, read from untrusted JSON (null when it is not one). */
export function modelsOfManifest(
  value: unknown,
): Pick<PrecacheManifest, 'models' | 'version' | 'modelsVersion'> | null {
  const m = fieldsOf(value);
  if (!m || typeof m.version !== 'string' || typeof m.modelsVersion !== 'string') return null;
  if (!Array.isArray(m.models)) return null;
  const models = (m.models as unknown[]).map(modelListing);
  if (models.some((l) => l === null)) return null;
  return {
    models: models.filter((l) => l !== null),
    version: m.version,
    modelsVersion: m.modelsVersion,
  };
}
