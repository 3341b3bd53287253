import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { quietThirdPartySourcemaps } from '../../scripts/lib/quiet-sourcemaps-plugin.ts';

const require = createRequire(import.meta.url);
const worker = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js');

async function load(id: string) {
  const plugin = quietThirdPartySourcemaps();
  const hook = plugin.load;
  if (typeof hook !== 'function') throw new Error('the plugin has a load hook');
  return hook.call(undefined as never, id);
}

describe('quietThirdPartySourcemaps', () => {
  it('serves duckdb-wasm files without their source-map comment, code otherwise unchanged', async () => {
    const original = readFileSync(worker, 'utf8');
    expect(original).toMatch(/\/\/# sourceMappingURL=/);
    // The dev server asks for dependencies with its version query.
    for (const id of [worker, `${worker}?v=9349c55e`]) {
      const loaded = await load(id);
      if (!loaded || typeof loaded === 'string') throw new Error('expected code and a null map');
      expect(loaded.code).not.toMatch(/sourceMappingURL/);
    }
    const loaded = await load(worker);
    if (!loaded || typeof loaded === 'string') throw new Error('expected code and a null map');
    expect(loaded.code).not.toMatch(/sourceMappingURL/);
    expect(loaded.code.length).toBeGreaterThan(original.length - 200);
    expect(loaded.map).toBeNull();
  });

  it('leaves an id with a query to the plugin it is for (`?url` becomes a URL, not code)', async () => {
    expect(await load(`${worker}?url`)).toBeNull();
    expect(await load(`${worker}?worker_file&type=classic`)).toBeNull();
    expect(await load(`${worker}?import`)).toBeNull();
  });

  it('leaves every other file to Vite', async () => {
    expect(await load(fileURLToPath(new URL('../../src/main.ts', import.meta.url)))).toBeNull();
    expect(await load(require.resolve('vega-lite'))).toBeNull();
  });
});
