import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

/** `./` lets one build run under any subpath (GitHub Pages project sites included). */
const base = process.env.MEMLENS_BASE ?? './';

export default defineConfig({
  base,
  plugins: [svelte()],
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
  },
  worker: { format: 'es' },
  optimizeDeps: {
    exclude: ['@duckdb/duckdb-wasm', '@huggingface/transformers', 'onnxruntime-web'],
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
