import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const E2E_BASE = '/memlens/';
export const E2E_OUT = path.join(repoRoot, 'dist-e2e');

let built: Promise<string> | null = null;

/** Builds once per test process with base `/memlens/`; MEMLENS_E2E_PREBUILT skips it. */
export function buildSite(): Promise<string> {
  if (process.env.MEMLENS_E2E_PREBUILT && existsSync(path.join(E2E_OUT, 'index.html'))) {
    return Promise.resolve(E2E_OUT);
  }
  built ??= (async () => {
    process.env.MEMLENS_BASE = E2E_BASE;
    await build({
      root: repoRoot,
      configFile: path.join(repoRoot, 'vite.config.ts'),
      base: E2E_BASE,
      logLevel: 'warn',
      build: { outDir: E2E_OUT, emptyOutDir: true },
    });
    return E2E_OUT;
  })();
  return built;
}
