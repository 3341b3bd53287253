// onnxruntime-web's wasm build, served by this site (never a CDN). transformers.js 4.3 imports
// `onnxruntime-web/webgpu`, whose bundle runs the asyncify build for both WASM and WebGPU.
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

/** Absolute URLs: the worker resolves relative ones against its own script. */
export function ortWasmPaths(base: string = document.baseURI): { mjs: string; wasm: string } {
  return { mjs: new URL(ortMjsUrl, base).href, wasm: new URL(ortWasmUrl, base).href };
}

/** Threads need SharedArrayBuffer, which only a cross-origin-isolated page has. */
export function wasmThreadCount(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}
