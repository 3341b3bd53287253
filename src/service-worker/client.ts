// The page's side of the service worker: registers it under the site's base, follows its
// install progress, asks it what it holds and applies a waiting update on request.
import { MANIFEST_FILE, SW_FILE } from '../lib/offline/precache.ts';
import type { FromWorkerMessage, ToWorkerMessage } from '../lib/offline/messages.ts';
import type { OfflineSnapshot } from '../lib/offline/status.ts';
import { errorMessage } from '../lib/common/error-message.ts';
import { createStore, patch } from '../lib/common/store.ts';

function ask(worker: ServiceWorker, message: ToWorkerMessage): Promise<FromWorkerMessage> {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error('service worker did not answer')), 10_000);
    channel.port1.onmessage = (e: MessageEvent<FromWorkerMessage>) => {
      clearTimeout(timer);
      resolve(e.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

export class OfflineClient {
  private readonly snapshot = createStore<OfflineSnapshot>({
    phase: 'off',
    progress: null,
    report: null,
    updateReady: false,
    error: '',
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    modelSave: null,
    modelSaveError: '',
  });
  readonly subscribe = this.snapshot.subscribe;
  private registration: ServiceWorkerRegistration | null = null;
  private updating = false;
  /** Why the last install stopped; kept until a complete precache is reported. */
  private failed = '';
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** The worker answered this page with the cached shell because the network failed. */
  private savedCopy = false;
  private saving: AbortController | null = null;

  /** Scope = the site's base, so one build works under any subpath. */
  async register(base: string = document.baseURI): Promise<void> {
    const onLine = () => {
      this.savedCopy = false;
      patch(this.snapshot, { online: navigator.onLine });
    };
    window.addEventListener('online', onLine);
    window.addEventListener('offline', onLine);
    if (!('serviceWorker' in navigator)) {
      patch(this.snapshot, { phase: 'unsupported' });
      return;
    }
    const container = navigator.serviceWorker;
    container.addEventListener('message', (e: MessageEvent<FromWorkerMessage>) =>
      this.onMessage(e.data),
    );
    container.startMessages();
    container.addEventListener('controllerchange', () => {
      if (this.updating) location.reload();
      else this.scheduleRefresh();
    });
    try {
      const scope = new URL('./', base);
      const reg = await container.register(new URL(SW_FILE, scope), { scope: scope.pathname });
      this.registration = reg;
      reg.addEventListener('updatefound', () => this.track(reg.installing));
      this.track(reg.installing ?? reg.waiting ?? reg.active);
      this.watchUpstream(reg);
      await this.refresh();
    } catch (err) {
      patch(this.snapshot, { phase: 'error', error: errorMessage(err) });
    }
  }

  /**
   * The first visit fetches upstream files before the worker controls the page, so the worker
   * never sees them; it is told which, and keeps the ones the build pins.
   */
  private watchUpstream(reg: ServiceWorkerRegistration): void {
    if (typeof PerformanceObserver === 'undefined') return;
    const seen = new Set<string>();
    const pending: string[] = [];
    const flush = () => {
      if (!reg.active || pending.length === 0) return;
      const message: ToWorkerMessage = { type: 'keep-upstream', urls: pending.splice(0) };
      reg.active.postMessage(message);
    };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!e.name.startsWith('http') || new URL(e.name).origin === location.origin) continue;
        if (seen.has(e.name)) continue;
        seen.add(e.name);
        pending.push(e.name);
      }
      flush();
    }).observe({ type: 'resource', buffered: true });
    reg.addEventListener('updatefound', () =>
      reg.installing?.addEventListener('statechange', flush),
    );
    navigator.serviceWorker.ready.then(flush).catch(() => undefined);
  }

  private track(worker: ServiceWorker | null): void {
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'redundant' && !this.registration?.active && !this.failed) {
        this.failed = 'Saving for offline stopped before it finished; the next visit tries again.';
        patch(this.snapshot, { phase: 'error', error: this.failed });
      }
      this.scheduleRefresh();
    });
  }

  private onMessage(message: FromWorkerMessage): void {
    if (message.type === 'precache-failed') {
      this.failed = `Saving for offline stopped: ${message.reason}. Nothing corrupt was kept; the next visit tries again.`;
      patch(this.snapshot, { phase: 'error', error: this.failed });
    } else if (message.type === 'precache-progress') {
      patch(this.snapshot, { progress: { done: message.done, total: message.total } });
      if (message.done === message.total) this.scheduleRefresh();
    } else if (message.type === 'cache-changed') {
      this.scheduleRefresh();
    }
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 150);
  }

  /** Re-reads what the active worker holds. */
  async refresh(): Promise<void> {
    const reg = this.registration;
    if (!reg) return;
    const updateReady = !!reg.waiting && !!reg.active;
    const worker = reg.active;
    if (!worker) {
      patch(this.snapshot, { phase: this.failed ? 'error' : 'installing', updateReady });
      return;
    }
    try {
      const reply = await ask(worker, { type: 'status' });
      if (reply.type !== 'status') return;
      const complete = reply.report.precache.complete;
      if (complete) this.failed = '';
      const phase = complete ? 'ready' : this.failed ? 'error' : 'installing';
      if (reply.savedCopy) this.savedCopy = true;
      const online = navigator.onLine && !this.savedCopy;
      patch(this.snapshot, {
        phase,
        report: reply.report,
        updateReady,
        error: this.failed,
        online,
      });
    } catch (err) {
      patch(this.snapshot, { phase: 'error', error: errorMessage(err) });
    }
  }

  /**
   * Drops files the page found corrupt from the worker's caches, so the next fetch goes to the
   * server; resolves once the worker answered (or at once when no worker controls the page).
   */
  async evict(urls: readonly string[]): Promise<void> {
    const worker = typeof navigator === 'undefined' ? null : navigator.serviceWorker?.controller;
    if (!worker) return;
    const absolute = urls.map((u) => new URL(u, document.baseURI).href);
    await ask(worker, { type: 'evict', urls: absolute }).catch(() => undefined);
  }

  /**
   * Save for offline, models included: reads every model file the site serves that is not saved
   * yet, through the worker (which keeps each as it passes), with progress; `cancelSaveModels`
   * stops it between chunks and keeps what was saved.
   */
  async saveModels(): Promise<void> {
    const scope = this.registration?.scope;
    if (this.saving || !scope || !navigator.serviceWorker.controller) return;
    const controller = new AbortController();
    this.saving = controller;
    patch(this.snapshot, { modelSave: { doneBytes: 0, totalBytes: 0 }, modelSaveError: '' });
    let error = '';
    try {
      const { modelsOfManifest, saveModelFiles, unsavedModelFiles } =
        await import('../lib/offline/save-models.ts');
      const res = await fetch(new URL(MANIFEST_FILE, scope), { signal: controller.signal });
      const manifest = modelsOfManifest(await res.json());
      if (!manifest) throw new Error(`${MANIFEST_FILE} does not list the site's models`);
      const files = await unsavedModelFiles(manifest, scope, async (url, cacheName) =>
        caches.match(url, { cacheName }).then((hit) => hit !== undefined),
      );
      await saveModelFiles(files, {
        signal: controller.signal,
        onProgress: (p) => patch(this.snapshot, { modelSave: p }),
      });
    } catch (err) {
      if (!controller.signal.aborted) {
        error = `Saving the models stopped: ${errorMessage(err)}. What was saved is kept; try again.`;
      }
    } finally {
      this.saving = null;
      patch(this.snapshot, { modelSave: null, modelSaveError: error });
      await this.refresh();
    }
  }

  cancelSaveModels(): void {
    this.saving?.abort();
  }

  /** Lets the waiting build take over; the page reloads once it controls it. */
  applyUpdate(): void {
    const waiting = this.registration?.waiting;
    if (!waiting) return;
    this.updating = true;
    waiting.postMessage({ type: 'skip-waiting' } satisfies ToWorkerMessage);
  }
}

export const offlineClient = new OfflineClient();
