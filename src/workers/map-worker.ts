// The embedding map's worker: projects one set of vectors to 2-D (PCA or UMAP) off the page's
// thread, posting progress per UMAP epoch. The page terminates it to cancel.
import { errorMessage } from '../lib/common/error-message.ts';
import { runProjection } from '../lib/map/projection.ts';
import { isProjectMessage, type FromMapWorker } from '../lib/map/worker-protocol.ts';

/** Progress is posted at most this often: a message per epoch would flood the page. */
const PROGRESS_EVERY_MS = 100;

function post(message: FromMapWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, { transfer });
}

self.addEventListener('message', (event: MessageEvent) => {
  const message: unknown = event.data;
  if (!isProjectMessage(message)) return;
  const { id, request } = message;
  const started = performance.now();
  let last = 0;
  try {
    const coords = runProjection(request, (progress) => {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS && progress.done < progress.total) return;
      last = now;
      post({ type: 'progress', id, progress });
    });
    post({ type: 'projected', id, coords, ms: performance.now() - started }, [coords.buffer]);
  } catch (error) {
    post({ type: 'error', id, message: errorMessage(error) });
  }
});
