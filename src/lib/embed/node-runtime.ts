// Which runtime the CLI runs a dtype on. onnxruntime-node's fp32 kernels agree across CPUs (to
// ~1e-12), so fp32 runs there, fast. Its int8 (and fp16, int4) kernels differ by CPU (VNNI,
// AVX2, AVX-512), so a number from them would belong to the machine: every other dtype runs on
// onnxruntime-web's WASM backend, as the page runs it, whose SIMD semantics are fixed.
import type { ModelDtype } from './model-registry.ts';

export type NodeRuntime = 'onnxruntime-node cpu' | 'onnxruntime-web wasm';

export function nodeRuntime(dtype: ModelDtype): NodeRuntime {
  return dtype === 'fp32' ? 'onnxruntime-node cpu' : 'onnxruntime-web wasm';
}
