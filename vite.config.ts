import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { memlensOffline } from './src/service-worker/plugin.ts';
import { chartSnapshot } from './scripts/lib/chart-snapshot-plugin.ts';
import { quietThirdPartySourcemaps } from './scripts/lib/quiet-sourcemaps-plugin.ts';

/** `./` lets one build run under any subpath (GitHub Pages project sites included). */
const base = process.env.MEMLENS_BASE ?? './';

export default defineConfig({
  base,
  plugins: [quietThirdPartySourcemaps(), svelte(), chartSnapshot(), memlensOffline()],
  // scripts/lib/site-build.ts turns the e2e and benchmark hooks on; here they compile out.
  define: { __MEMLENS_TEST_HOOKS__: 'false' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      output: {
        // The small core modules that both the shell and the lazily loaded DuckDB client use
        // would otherwise each be a chunk of their own: one request apiece before the first chart
        // (budgets.json counts them).
        codeSplitting: {
          groups: [
            {
              name: 'shell-core',
              test: /\/src\/lib\/(common|offline)\/|\/src\/lib\/(db\/engine|datasets\/validate|app\/download|embed\/test-hooks)\.ts$|\/src\/features\/console\/core\/console-url\.ts$/,
            },
            {
              // The same for the small modules the start path shares with lazy pages.
              name: 'start-shared',
              test: /\/src\/lib\/(query\/(catalog-queries|user-tables)|datasets\/jsonl|embed\/model-(registry|location|ref)|charts\/chart-kit)\.ts$|\/src\/lib\/app\/use-query\.svelte\.ts$/,
            },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
  optimizeDeps: {
    exclude: ['@duckdb/duckdb-wasm', '@huggingface/transformers', 'onnxruntime-web'],
  },
  server: { host: '127.0.0.1' },
  // Cross-origin isolation, so threaded WASM (SharedArrayBuffer) works in `vite preview`.
  preview: {
    host: '127.0.0.1',
    headers: {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    },
  },
});
