// `window.memlens.embed(...)`: embeds given texts without the vector cache and reports what ran.
// For scripted checks (the parity test, `npm run bench:embed`); the UI never calls it, and
// `npm run build` leaves it out (TEST_HOOKS).
import type { EmbedderHub } from './embedder-hub.ts';
import { parseModelRef } from './model-ref.ts';
import { TEST_HOOKS } from './test-hooks.ts';
import type { DeviceChoice } from './backend-choice.ts';
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
  /** Texts per forward pass; the embedder's default when absent. */
  maxBatch?: number;
  /** Padded tokens per forward pass (0: none); the embedder's default when absent. */
  tokenBudget?: number;
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
  const embedder = await hub.scratch({
    model,
    failWebgpuProbe: request.failWebgpuProbe,
    maxBatch: request.maxBatch,
    tokenBudget: request.tokenBudget,
  });
  try {
    const report = embedder.report;
    if (!report) throw new Error('the embedder reports no load');
    const runMs: number[] = [];
    let first: { dim: number; vectors: Float32Array } | null = null;
    for (let i = 0; i < Math.max(1, request.repeats ?? 1); i++) {
      const start = performance.now();
      const result = await embedder.embed(request.texts, { kind: request.kind ?? 'document' });
      runMs.push(performance.now() - start);
      first ??= result;
    }
    if (!first) throw new Error('no run');
    return { report, dim: first.dim, vectors: Array.from(first.vectors), runMs };
  } finally {
    await embedder.dispose();
  }
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
