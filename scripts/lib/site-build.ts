import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildEnvironmentOptions } from 'vite';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const E2E_BASE = '/memlens/';
export const E2E_OUT = path.join(repoRoot, 'dist-e2e');

let built: Promise<string> | null = null;

/** The site under `/memlens/` into `outDir`; `testHooks` compiles in what scripted checks drive. */
export async function buildSiteTo(outDir: string, opts: { testHooks: boolean }): Promise<string> {
  process.env.MEMLENS_BASE = E2E_BASE;
  // Test builds leave the site's vectors out: their pages embed, whatever public/vectors holds.
  process.env.MEMLENS_SITE_VECTORS = opts.testHooks ? 'off' : 'on';
  // Under Vitest NODE_ENV is 'test', which would compile Svelte in dev mode: the pages tested and
  // the bytes budgeted would not be the ones readers get. Build as `npm run build` does.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: repoRoot,
      configFile: path.join(repoRoot, 'vite.config.ts'),
      base: E2E_BASE,
      define: { __MEMLENS_TEST_HOOKS__: String(opts.testHooks) },
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

/**
 * The test build in dist-e2e/, with the hooks (`window.memlens`, `webgpuProbe=fail`) compiled in.
 * Once per process; MEMLENS_E2E_PREBUILT reuses what is there.
 */
export function buildSite(): Promise<string> {
  if (process.env.MEMLENS_E2E_PREBUILT && existsSync(path.join(E2E_OUT, 'index.html'))) {
    return Promise.resolve(E2E_OUT);
  }
  built ??= buildSiteTo(E2E_OUT, { testHooks: true });
  return built;
}

/**
 * A benchmark's browser entry bundled alone into `dir` as `<fileName>` (ES module, no public/),
 * for a bare page to load; `rollupOptions` for what it keeps external.
 */
export async function bundleBrowserEntry(opts: {
  entry: string;
  dir: string;
  fileName: string;
  rollupOptions?: BuildEnvironmentOptions['rollupOptions'];
}): Promise<void> {
  await build({
    configFile: false,
    root: repoRoot,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir: opts.dir,
      emptyOutDir: false,
      target: 'es2022',
      lib: {
        entry: path.join(repoRoot, opts.entry),
        formats: ['es'],
        fileName: () => opts.fileName,
      },
      rollupOptions: opts.rollupOptions,
    },
  });
}
