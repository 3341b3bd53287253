// The Embeddings page's embedder lifecycle as plain state: load a model through the hub, embed
// a corpus behind a progress meter, cancel, and keep the vector cache's count; vector packs are
// imported into that cache and the last finished run exported from it.
import type { WebBackend } from '../embed/backend-choice.ts';
import {
  describeImport,
  exportPack,
  importPack,
  packFileName,
  type FinishedRun,
} from '../vectors/pack-io.ts';
import type { LoadReport } from '../embed/browser-embedder.ts';
import type { EmbeddingMatrix } from '../embed/embedder.ts';
import {
  requestKey,
  type EmbedderHub,
  type EmbedderRequest,
  type HubEmbedder,
} from '../embed/embedder-hub.ts';
import { errorMessage } from '../common/error-message.ts';
import { createStore, patch } from '../common/store.ts';
import type { LoadProgress } from '../embed/load-progress.ts';
import type { ModelSpec } from '../embed/model-registry.ts';
import type { ModelRef } from '../embed/model-ref.ts';
import type { RunProgress } from '../embed/progress.ts';

export type EmbedPhase = 'idle' | 'loading' | 'embedding' | 'done' | 'cancelled' | 'error';

export interface EmbedRunState {
  /** False until the vector cache has opened (or failed to). */
  ready: boolean;
  phase: EmbedPhase;
  report: LoadReport | null;
  loadProgress: LoadProgress | null;
  progress: RunProgress | null;
  /** Texts per second of the last run that computed anything. */
  lastRate: number | null;
  error: string;
  cacheNotice: string;
  cacheCount: number | null;
  cacheBusy: boolean;
  /** The run a pack export writes: its own model and dtype, whatever the controls say now. */
  lastRun: FinishedRun | null;
  packStatus: string;
  packImported: number | null;
  packBusy: boolean;
}

export interface EmbedChoice {
  /** The page's picked model, dtype, device and source, parsed once from its URL and controls. */
  model: ModelRef;
  failWebgpuProbe: boolean;
  perturbProbe: WebBackend | null;
}

export const INITIAL_EMBED_STATE: EmbedRunState = {
  ready: false,
  phase: 'idle',
  report: null,
  loadProgress: null,
  progress: null,
  lastRate: null,
  error: '',
  cacheNotice: '',
  cacheCount: null,
  cacheBusy: false,
  lastRun: null,
  packStatus: '',
  packImported: null,
  packBusy: false,
};

function requestOf({ model, failWebgpuProbe, perturbProbe }: EmbedChoice): EmbedderRequest {
  return { model, failWebgpuProbe, perturbProbe };
}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

/** `promise`, or an AbortError as soon as `signal` aborts (the work itself goes on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new DOMException('Cancelled', 'AbortError'));
  return new Promise((resolve, reject) => {
    const stop = () => reject(new DOMException('Cancelled', 'AbortError'));
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export class EmbedRun {
  private readonly state = createStore(INITIAL_EMBED_STATE);
  readonly subscribe = this.state.subscribe;
  readonly getSnapshot = this.state.get;
  private loadedKey = '';
  private current: AbortController | null = null;

  constructor(
    private readonly hub: EmbedderHub,
    private readonly specs: readonly ModelSpec[],
  ) {}

  /** The matrix of the last finished run, or null (none yet, or it was cancelled). */
  lastMatrix(): EmbeddingMatrix | null {
    const run = this.state.get().lastRun;
    return run && { dim: run.matrix.dim, count: run.texts.length, vectors: run.matrix.vectors };
  }

  /** Opens the hub's vector cache; the page is usable (without it, if it fails) once done. */
  async start(): Promise<void> {
    const store = await this.hub.store();
    patch(this.state, {
      ready: true,
      error: store ? '' : `Vector cache unavailable, every run recomputes: ${this.hub.storeError}`,
      cacheCount: await this.storedCount(),
    });
  }

  private async storedCount(): Promise<number | null> {
    const store = await this.hub.store();
    return store ? await store.count().catch(() => null) : null;
  }

  /**
   * The loaded embedder. Cancel during the load drops the wait at once: the hub finishes loading
   * and keeps the model, so the next Load or Embed finds it.
   */
  private async loaded(choice: EmbedChoice, signal: AbortSignal): Promise<HubEmbedder> {
    const request = requestOf(choice);
    const key = requestKey(request);
    if (key === this.loadedKey) return this.hub.embedder(request);
    this.loadedKey = '';
    patch(this.state, { phase: 'loading', report: null, loadProgress: null });
    const embedder = await untilAborted(
      this.hub.embedder(request, (loadProgress) => {
        if (!signal.aborted) patch(this.state, { loadProgress });
      }),
      signal,
    );
    this.loadedKey = key;
    patch(this.state, { report: embedder.report });
    return embedder;
  }

  private begin(): AbortController {
    this.current?.abort();
    const controller = new AbortController();
    this.current = controller;
    return controller;
  }

  async load(choice: EmbedChoice): Promise<void> {
    patch(this.state, { error: '' });
    const controller = this.begin();
    try {
      await this.loaded(choice, controller.signal);
      patch(this.state, { phase: 'idle' });
    } catch (err) {
      patch(
        this.state,
        isAbort(err) ? { phase: 'cancelled' } : { phase: 'error', error: errorMessage(err) },
      );
    } finally {
      if (this.current === controller) this.current = null;
    }
  }

  /** Ends in one patch with the cache's new count, so a finished phase never shows a stale one. */
  async embed(choice: EmbedChoice, texts: readonly string[]): Promise<void> {
    patch(this.state, { error: '', cacheNotice: '', lastRun: null });
    const controller = this.begin();
    const outcome = await this.embedded(choice, texts, controller.signal).catch(
      (err: unknown): Partial<EmbedRunState> =>
        isAbort(err) ? { phase: 'cancelled' } : { phase: 'error', error: errorMessage(err) },
    );
    if (this.current === controller) this.current = null;
    patch(this.state, { ...outcome, cacheCount: await this.storedCount() });
  }

  private async embedded(
    choice: EmbedChoice,
    texts: readonly string[],
    signal: AbortSignal,
  ): Promise<Partial<EmbedRunState>> {
    const embedder = await this.loaded(choice, signal);
    const run = { model: choice.model, texts: [...texts] };
    patch(this.state, { phase: 'embedding', progress: null });
    const matrix = await embedder.embed(run.texts, {
      kind: 'document',
      signal,
      onProgress: (progress) =>
        patch(
          this.state,
          progress.computed > 0 ? { progress, lastRate: progress.textsPerSecond } : { progress },
        ),
      onCacheError: (message) =>
        patch(this.state, {
          cacheNotice: `${message}. The vectors of this run are kept in memory but not saved.`,
        }),
    });
    return { phase: 'done', lastRun: { ...run, kind: 'document', matrix } };
  }

  /** Stops the run; it ends `cancelled` once the batches already being stored are whole. */
  cancel(): void {
    this.current?.abort();
  }

  async clearCache(): Promise<void> {
    const store = await this.hub.store();
    if (!store) return;
    patch(this.state, { cacheBusy: true });
    try {
      await store.clear();
    } catch (err) {
      patch(this.state, { error: `Could not clear the cache: ${errorMessage(err)}` });
    } finally {
      patch(this.state, { cacheBusy: false, cacheCount: await this.storedCount() });
    }
  }

  async importPack(name: string, bytes: () => Promise<ArrayBuffer>): Promise<void> {
    const store = await this.hub.store();
    if (!store) {
      patch(this.state, {
        packStatus: 'The vector cache is unavailable here, so a pack cannot be imported.',
      });
      return;
    }
    patch(this.state, { packBusy: true, packStatus: `Reading ${name}…` });
    let size: number | null = null;
    try {
      const read = await bytes();
      size = read.byteLength;
      const summary = await importPack(read, this.specs, store);
      patch(this.state, {
        packImported: summary.imported,
        packStatus: describeImport(name, summary),
      });
    } catch (err) {
      patch(this.state, {
        packImported: null,
        packStatus: await import('./import-failure.ts').then(
          (m) => m.importFailure(name, err, size),
          () => `Could not import ${name}: ${errorMessage(err)}`,
        ),
      });
    } finally {
      patch(this.state, { packBusy: false, cacheCount: await this.storedCount() });
    }
  }

  /** The last finished run as a pack and its file name; null when there is none. */
  async exportLastRun(): Promise<{ bytes: ArrayBuffer; fileName: string } | null> {
    const run = this.state.get().lastRun;
    if (!run) return null;
    patch(this.state, { packBusy: true });
    try {
      return { bytes: await exportPack(run), fileName: packFileName(run) };
    } catch (err) {
      patch(this.state, { packStatus: `Could not export: ${errorMessage(err)}` });
      return null;
    } finally {
      patch(this.state, { packBusy: false });
    }
  }

  dispose(): void {
    this.cancel();
    this.state.close();
  }
}

/** The Embeddings page's run over the app's one embedder hub. */
export function embedRun(
  services: { readonly hub: EmbedderHub },
  specs: readonly ModelSpec[],
): EmbedRun {
  return new EmbedRun(services.hub, specs);
}
