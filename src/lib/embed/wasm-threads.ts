/** Threads need SharedArrayBuffer, which only a cross-origin-isolated page has. */
export function wasmThreadCount(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}
