// The embedding worker: loads one model at a time and embeds batches, posting each finished
// batch so the page can store it before the next one ends. Requests run one after another.
import { embedInBatches, type BatchPlan } from '../lib/embed/token-batches.ts';
import { chooseBackend } from '../lib/embed/backend-choice.ts';
import { requestAdapterReport, type AdapterReport } from '../lib/embed/webgpu.ts';
import { errorMessage } from '../lib/common/error-message.ts';
import {
  configureTransformers,
  loadModel,
  modelGuard,
  probe,
  provideOrtWasm,
  type LoadedModel,
} from '../lib/embed/worker-model.ts';
import type { FromWorker, ToWorker, WorkerLoadConfig } from '../lib/embed/worker-protocol.ts';
import { LoadProgressTracker, type ProgressEvent } from '../lib/embed/load-progress.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let current: { model: LoadedModel; plan: BatchPlan } | null = null;
const cancelled = new Set<number>();
let queue: Promise<void> = Promise.resolve();
/** Model files that failed their check: every later load fetches them past the HTTP cache. */
const failedModelUrls = new Set<string>();

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

async function load(id: number, config: WorkerLoadConfig): Promise<void> {
  const started = performance.now();
  await current?.model.dispose();
  current = null;
  const guard = modelGuard(
    config,
    config.siteBase,
    fetch.bind(scope),
    scope.caches ?? null,
    failedModelUrls,
  );
  configureTransformers(config, guard);
  await provideOrtWasm(config.wasmPaths, fetch.bind(scope));
  const tracker = new LoadProgressTracker();
  const onProgress = (event: ProgressEvent) => {
    const progress = tracker.update(event);
    if (progress) post({ type: 'load-progress', id, progress });
  };
  let adapter: AdapterReport | null = null;
  const choice = await chooseBackend(
    config.device,
    async () => (adapter = await requestAdapterReport()),
    async () => {
      const model = await loadModel(config, 'webgpu', guard, onProgress);
      try {
        await probe(model, config.failWebgpuProbe);
      } catch (error) {
        await model.dispose().catch(() => undefined);
        throw error;
      }
      return model;
    },
    // A file that failed its check on WebGPU fails on WASM too: no second download.
    () =>
      guard.failure ? Promise.reject(guard.failure) : loadModel(config, 'wasm', guard, onProgress),
  );
  current = { model: choice.value, plan: config.batchPlan };
  post({
    type: 'loaded',
    id,
    info: {
      backend: choice.backend,
      fallbackReason: choice.fallbackReason,
      emulated: choice.emulated,
      adapter,
      threads: choice.backend === 'wasm' ? config.numThreads : 0,
      loadMs: performance.now() - started,
      files: choice.value.files,
      weightsSha256: choice.value.weightsSha256,
    },
  });
}

async function embed(id: number, texts: string[]): Promise<void> {
  if (!current) throw new Error('no model loaded');
  const { model, plan } = current;
  const finished = await embedInBatches(model.encode(texts), plan, {
    embed: (batch) => model.embed(batch),
    onBatch: (indices, vectors) => post({ type: 'batch', id, indices, vectors }, [vectors.buffer]),
    stopped: () => cancelled.has(id),
  });
  if (!finished) {
    post({ type: 'cancelled', id });
    return;
  }
  post({ type: 'embedded', id });
}

/**
 * ONNX Runtime starts its wasm threads from this very script (its glue is bundled here, and the
 * worker runs from a checked blob: URL): in those workers ORT's own pthread code takes the
 * messages, so this handler stays out of them.
 */
const isOrtThread = scope.name.startsWith('em-pthread');

function onMessage(event: MessageEvent<ToWorker>): void {
  const message = event.data;
  if (message.type === 'cancel') {
    cancelled.add(message.id);
    return;
  }
  if (message.type === 'hold') {
    const id = message.id;
    void navigator.locks.request(message.lock, () => {
      post({ type: 'held', id });
      return new Promise<never>(() => undefined);
    });
    return;
  }
  queue = queue.then(async () => {
    try {
      if (message.type === 'load') await load(message.id, message.config);
      else await embed(message.id, message.texts);
    } catch (error) {
      post({ type: 'error', id: message.id, message: errorMessage(error) });
    } finally {
      cancelled.delete(message.id);
    }
  });
}

if (!isOrtThread) scope.onmessage = onMessage;
