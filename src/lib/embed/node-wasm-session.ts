// Node-only: one ONNX graph on onnxruntime-web's WASM backend, with the session options
// transformers.js gives it in the page (wasm execution provider, ORT's default graph
// optimisation), so the CLI's vectors are the page's bit for bit. Node resolves
// `onnxruntime-web` to its Node build, which reads its wasm from node_modules/onnxruntime-web/dist.
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-web';
import type { BatchFeeds, ForwardPass } from './forward.ts';

export interface WasmSession {
  forward: ForwardPass;
  release(): Promise<void>;
}

let configured = false;

/** As the page: up to 4 threads (the result does not depend on the count). */
function configureOnce(): void {
  if (configured) return;
  ort.env.wasm.numThreads = Math.max(1, Math.min(4, availableParallelism()));
  ort.env.wasm.proxy = false;
  configured = true;
}

function int64(tensor: BatchFeeds['input_ids']): ort.Tensor {
  if (!(tensor.data instanceof BigInt64Array)) throw new Error('feed is not int64');
  return new ort.Tensor('int64', tensor.data, tensor.dims);
}

export async function openWasmSession(weights: Uint8Array): Promise<WasmSession> {
  configureOnce();
  const session = await ort.InferenceSession.create(weights, { executionProviders: ['wasm'] });
  const forward: ForwardPass = async (feeds) => {
    const all: Record<string, ort.Tensor> = {
      input_ids: int64(feeds.input_ids),
      attention_mask: int64(feeds.attention_mask),
      token_type_ids: int64(feeds.token_type_ids),
    };
    const wanted = Object.fromEntries(session.inputNames.map((name) => [name, all[name]]));
    const missing = session.inputNames.filter((name) => !all[name]);
    if (missing.length > 0) throw new Error(`the graph wants inputs ${missing.join(', ')}`);
    const out = await session.run(wanted);
    const hidden = out.last_hidden_state;
    if (!hidden || hidden.type !== 'float32' || !(hidden.data instanceof Float32Array)) {
      throw new Error('model output has no float32 last_hidden_state');
    }
    const dispose = () => Object.values(out).forEach((t) => t.dispose());
    return { data: hidden.data, dims: hidden.dims, dispose };
  };
  return { forward, release: () => session.release() };
}
