// onnxruntime-web's wasm build, served by this site (never a CDN). transformers.js 4.3 imports
// `onnxruntime-web/webgpu`, whose bundle runs the asyncify build for both WASM and WebGPU.
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { WasmPaths } from '../lib/embed/worker-protocol.ts';

/** Absolute URLs: the worker resolves relative ones against its own script. */
export function ortWasmPaths(base: string = document.baseURI): WasmPaths {
  return { mjs: new URL(ortMjsUrl, base).href, wasm: new URL(ortWasmUrl, base).href };
}
