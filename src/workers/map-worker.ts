// The embedding map's worker: projects one set of vectors to 2-D (PCA or UMAP) off the page's
// thread, posting progress per UMAP epoch. The page terminates it to cancel.
import { serveRpc, transferring, type RpcCallContext } from '../lib/common/worker-rpc.ts';
import {
  runProjection,
  type ProjectionProgress,
  type ProjectionRequest,
} from '../lib/map/projection.ts';
import { isProjectionRequest, type MapMethods } from '../lib/map/worker-protocol.ts';

/** Progress is posted at most this often: a message per epoch would flood the page. */
const PROGRESS_EVERY_MS = 100;

function project(request: ProjectionRequest, { progress }: RpcCallContext<ProjectionProgress>) {
  const started = performance.now();
  let last = 0;
  const coords = runProjection(request, (step) => {
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS && step.done < step.total) return;
    last = now;
    progress(step);
  });
  return transferring({ coords, ms: performance.now() - started }, [coords.buffer]);
}

serveRpc<MapMethods>(self, { project }, { accepts: { project: isProjectionRequest } });
