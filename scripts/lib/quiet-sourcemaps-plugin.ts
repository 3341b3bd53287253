// duckdb-wasm's dist files carry source maps that point outside the package (into its bundled
// apache-arrow sources), so `vite` dev warns once per source: 117 lines on every start. Serving
// those files without their sourceMappingURL comment keeps the dev server quiet; builds are
// untouched (they emit no source maps). Only a plain file id, or one with the version query Vite
// adds to dependencies (`?v=<hash>`), is ours; any other query (`?url`, `?worker`, `?import`) is
// another plugin's to answer: `?url` must become the file's URL, not its code.
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

const NOISY = /\/node_modules\/@duckdb\/duckdb-wasm\/dist\/[^?]*\.(?:m?js|cjs)(?:\?v=\w+)?$/;
const MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

export function quietThirdPartySourcemaps(): Plugin {
  return {
    name: 'memlens:quiet-third-party-sourcemaps',
    apply: 'serve',
    enforce: 'pre',
    async load(id) {
      if (!NOISY.test(id)) return null;
      const code = await readFile(id.replace(/\?v=\w+$/, ''), 'utf8');
      return { code: code.replace(MAP_COMMENT, '\n'), map: null };
    },
  };
}
