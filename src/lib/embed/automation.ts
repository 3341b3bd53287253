// `window.memlens.embed(...)`: embeds given texts without the vector cache and reports what ran.
// For scripted checks (the parity test, `npm run bench:embed`); the UI never calls it.
import { BrowserEmbedder } from './browser-embedder.ts';
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

async function embedOnce(request: AutomationRequest): Promise<AutomationResult> {
  const embedder = new BrowserEmbedder({ cache: null, maxBatch: request.maxBatch });
  try {
    const report = await embedder.load(request.model, {
      device: request.device,
      dtype: request.dtype,
      failWebgpuProbe: request.failWebgpuProbe,
    });
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

/** Installs the hook; the returned function removes it. */
export function installAutomation(lastRun: () => EmbeddingMatrix | null): () => void {
  const hook: MemlensAutomation = {
    embed: embedOnce,
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
