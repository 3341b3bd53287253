// Starts DuckDB-WASM's worker with TransformStream hidden. With it, DuckDB wraps the wasm
// response in a progress stream (a synthetic Response without a URL), so Chromium compiles all
// 34 MB again on every visit; without it, DuckDB calls WebAssembly.instantiateStreaming(fetch())
// directly and Chromium keeps the compiled code beside the HTTP cache entry (issue 23).
'use strict';
self.TransformStream = undefined;
// The worker's path comes in the fragment: never sent, so the offline precache matches the shim.
const worker = new URLSearchParams(self.location.hash.slice(1)).get('worker') || '';
const url = new URL(worker, self.location.href);
if (url.origin !== self.location.origin) throw new Error('DuckDB worker must be same-origin');
importScripts(url.href);
