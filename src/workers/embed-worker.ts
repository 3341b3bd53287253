// The embedding worker: loads one model at a time and embeds batches, posting each finished
// batch so the page can store it before the next one ends. Calls run one after another.
import { embedInBatches, type BatchPlan } from '../lib/embed/token-batches.ts';
import { chooseBackend } from '../lib/embed/backend-choice.ts';
import { browserDevice } from '../lib/embed/model-ref.ts';
import { requestAdapterReport, type AdapterReport } from '../lib/embed/webgpu.ts';
import { errorMessage } from '../lib/common/error-message.ts';
import { serveRpc, type RpcCallContext } from '../lib/common/worker-rpc.ts';
import {
  configureTransformers,
  loadModel,
  modelGuard,
  perturbedModel,
  probe,
  provideOrtWasm,
  type LoadedModel,
} from '../lib/embed/worker-model.ts';
import { ProbeRefused, type ProbeVerdict } from '../lib/embed/probe-check.ts';
import type { ProbeSet } from '../lib/embed/probe-registry.ts';
import type { WebBackend } from '../lib/embed/backend-choice.ts';
import { checkedBytesHealing } from '../lib/offline/checked-assets.ts';
import type {
  EmbeddedBatch,
  EmbedMethods,
  LoadInfo,
  WorkerLoadConfig,
} from '../lib/embed/worker-protocol.ts';
import {
  LoadProgressTracker,
  type LoadProgress,
  type ProgressEvent,
} from '../lib/embed/load-progress.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let current: { model: LoadedModel; plan: BatchPlan } | null = null;
/** Model files that failed their check: every later load fetches them past the HTTP cache. */
const failedModelUrls = new Set<string>();
/** Each backend's probe verdict for a model's weights, kept for the session: it proves itself once. */
const verdicts = new Map<string, ProbeVerdict | null>();
const refusals = new Map<string, ProbeRefused>();

/** Loads `backend` and has it prove itself (once per weights and backend); a refusal throws. */
async function provenModel(
  config: WorkerLoadConfig,
  backend: WebBackend,
  load: () => Promise<LoadedModel>,
): Promise<{ model: LoadedModel; verdict: ProbeVerdict | null }> {
  const loaded = await load();
  const model = config.perturbProbe === backend ? perturbedModel(loaded) : loaded;
  const perturbed = model !== loaded;
  const key = JSON.stringify([model.spec.id, model.dtype, backend, model.weightsSha256, perturbed]);
  if (verdicts.has(key)) return { model, verdict: verdicts.get(key) ?? null };
  try {
    const refused = refusals.get(key);
    if (refused) throw refused;
    const verdict = await probe(model, {
      forceFailure: backend === 'webgpu' && config.failWebgpuProbe,
      plan: config.batchPlan,
      fetchReference: (set: ProbeSet) =>
        checkedBytesHealing(
          new URL(set.file, config.siteBase).href,
          set.sha256,
          undefined,
          fetch.bind(scope),
        ),
    });
    verdicts.set(key, verdict);
    return { model, verdict };
  } catch (error) {
    if (error instanceof ProbeRefused) refusals.set(key, error);
    await model.dispose().catch(() => undefined);
    // WebGPU's refusal is said by chooseBackend, which falls back; WASM has nothing to fall back to.
    throw backend === 'wasm' ? new Error(`WASM probe failed: ${errorMessage(error)}`) : error;
  }
}

async function load(
  { config }: { config: WorkerLoadConfig },
  call: RpcCallContext<LoadProgress>,
): Promise<LoadInfo> {
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
    if (progress) call.progress(progress);
  };
  let adapter: AdapterReport | null = null;
  const choice = await chooseBackend(
    browserDevice(config.model),
    async () => (adapter = await requestAdapterReport()),
    () => provenModel(config, 'webgpu', () => loadModel(config, 'webgpu', guard, onProgress)),
    // A file that failed its check on WebGPU fails on WASM too: no second download.
    () =>
      guard.failure
        ? Promise.reject(guard.failure)
        : provenModel(config, 'wasm', () => loadModel(config, 'wasm', guard, onProgress)),
  );
  current = { model: choice.value.model, plan: config.batchPlan };
  return {
    backend: choice.backend,
    fallbackReason: choice.fallbackReason,
    emulated: choice.emulated,
    adapter,
    threads: choice.backend === 'wasm' ? config.numThreads : 0,
    loadMs: performance.now() - started,
    files: choice.value.model.files,
    weightsSha256: choice.value.model.weightsSha256,
    probe: choice.value.verdict,
  };
}

/** A cancelled run stops between batches; the RPC then answers `cancelled`. */
async function embed(
  { texts }: { texts: string[] },
  { signal, progress }: RpcCallContext<EmbeddedBatch>,
): Promise<null> {
  if (!current) throw new Error('no model loaded');
  const { model, plan } = current;
  await embedInBatches(model.encode(texts), plan, {
    embed: (batch) => model.embed(batch),
    onBatch: (indices, vectors) => progress({ indices, vectors }, [vectors.buffer]),
    stopped: () => signal.aborted,
  });
  return null;
}

/**
 * ONNX Runtime starts its wasm threads from this very script (its glue is bundled here, and the
 * worker runs from a checked blob: URL): in those workers ORT's own pthread code takes the
 * messages, so this handler stays out of them.
 */
const isOrtThread = scope.name.startsWith('em-pthread');

if (!isOrtThread) serveRpc<EmbedMethods>(scope, { load, embed }, { serial: true });
