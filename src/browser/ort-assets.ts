// onnxruntime-web's wasm binary, served by this site (never a CDN). transformers.js 4.3 imports
// `onnxruntime-web/webgpu`, whose bundle runs the asyncify build for both WASM and WebGPU and
// carries that build's glue inside it (so the embed worker's checked bundle holds it too).
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { WasmPaths } from '../lib/embed/worker-protocol.ts';
import { buildDigests, expectedDigest } from '../lib/offline/checked-assets.ts';

/** An absolute URL (the worker runs from a blob: URL) and the build's sha256 the worker checks. */
export async function ortWasmPaths(base: string = document.baseURI): Promise<WasmPaths> {
  const wasm = new URL(ortWasmUrl, base).href;
  return { wasm, sha256: expectedDigest(await buildDigests(base), wasm) };
}
