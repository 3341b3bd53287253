// `window.memlens.embed(...)`: embeds given texts and reports what ran; without the vector cache
// unless asked (`cached`), so timed runs compute every time.
// For scripted checks (the parity test, `npm run bench:embed`); the UI never calls it, and
// `npm run build` leaves it out (TEST_HOOKS).
import type { EmbedderHub, EmbedderRequest, LoadedEmbedder } from './embedder-hub.ts';
import { parseModelRef } from './model-ref.ts';
import { TEST_HOOKS } from './test-hooks.ts';
import type { DeviceChoice, WebBackend } from './backend-choice.ts';
import type { ModelDtype, TextKind } from './model-registry.ts';
import type { EmbeddingMatrix } from './embedder.ts';
import type { LoadReport } from './browser-embedder.ts';

export interface AutomationRequest {
  texts: string[];
  model: string;
  device: DeviceChoice;
  dtype?: ModelDtype;
  kind?: TextKind;
  /** Timed runs over the same texts; the vectors returned are the first run's. */
  repeats?: number;
  failWebgpuProbe?: boolean;
  /** Test aid: this backend's vectors are perturbed, for its probe to refuse. */
  perturbProbe?: WebBackend | null;
  /** Texts per forward pass; the embedder's default when absent. */
  maxBatch?: number;
  /** Padded tokens per forward pass (0: none); the embedder's default when absent. */
  tokenBudget?: number;
  /**
   * Through the page's kept embedder and its vector cache, as a page's own run: later runs in
   * this browser, on any page, draw these vectors from the cache. One run, so no `repeats`.
   */
  cached?: boolean;
}

export interface AutomationResult {
  report: LoadReport;
  dim: number;
  /** Row-major, as plain numbers so the result survives structured cloning out of the page. */
  vectors: number[];
  runMs: number[];
}

export interface MemlensAutomation {
  embed(request: AutomationRequest): Promise<AutomationResult>;
  /** The matrix the Embeddings page last completed, or null (none yet, or the run was cancelled). */
  lastRun(): { dim: number; vectors: number[] } | null;
}

declare global {
  interface Window {
    memlens?: MemlensAutomation;
  }
}

async function embedOnce(hub: EmbedderHub, request: AutomationRequest): Promise<AutomationResult> {
  const model = parseModelRef(
    request.model,
    { dtype: request.dtype, backend: request.device },
    'memlens.embed',
  );
  const hubRequest: EmbedderRequest = {
    model,
    failWebgpuProbe: request.failWebgpuProbe,
    perturbProbe: request.perturbProbe,
    maxBatch: request.maxBatch,
    tokenBudget: request.tokenBudget,
  };
  if (request.cached) {
    if ((request.repeats ?? 1) > 1) throw new Error('memlens.embed: cached runs take no repeats');
    return timedRuns(await hub.embedder(hubRequest), request, 1);
  }
  const embedder = await hub.scratch(hubRequest);
  try {
    return await timedRuns(embedder, request, Math.max(1, request.repeats ?? 1));
  } finally {
    await embedder.dispose();
  }
}

async function timedRuns(
  embedder: LoadedEmbedder,
  request: AutomationRequest,
  repeats: number,
): Promise<AutomationResult> {
  const report = embedder.report;
  if (!report) throw new Error('the embedder reports no load');
  const runMs: number[] = [];
  let first: { dim: number; vectors: Float32Array } | null = null;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    const result = await embedder.embed(request.texts, { kind: request.kind ?? 'document' });
    runMs.push(performance.now() - start);
    first ??= result;
  }
  if (!first) throw new Error('no run');
  return { report, dim: first.dim, vectors: Array.from(first.vectors), runMs };
}

/** Installs the hook in test builds; the returned function removes it. */
export function installAutomation(
  lastRun: () => EmbeddingMatrix | null,
  hub: EmbedderHub,
): () => void {
  if (!TEST_HOOKS) return () => undefined;
  const hook: MemlensAutomation = {
    embed: (request) => embedOnce(hub, request),
    lastRun: () => {
      const matrix = lastRun();
      return matrix && { dim: matrix.dim, vectors: Array.from(matrix.vectors) };
    },
  };
  window.memlens = hook;
  return () => {
    if (window.memlens === hook) delete window.memlens;
  };
}
