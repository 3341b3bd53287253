import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Starts the tests spawn leave the site's vectors alone: prestart would remake them in a
// background process that outlives the test (and its temporary copy of the repository).
// test/e2e/site-vectors.test.ts makes its packs itself.
process.env.MEMLENS_SITE_VECTORS ??= 'off';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/commands/**'],
          environment: 'node',
          // One module graph per worker, not per file: 240 files re-imported their modules for
          // about 100 s of CPU in every run. A file that needs fresh module state resets it.
          isolate: false,
          testTimeout: 60_000,
          // A beforeAll that opens DuckDB or builds a chart harness: 10 s is too short beside e2e.
          hookTimeout: 120_000,
        },
      },
      {
        // README's and the docs' commands, spawned as printed.
        test: {
          name: 'commands',
          include: ['test/commands/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          fileParallelism: false,
          // Cases that share no file run beside each other (describe.concurrent): one per core, two
          // at least (a case mostly waits on its child), four at most (each embeds on every core).
          maxConcurrency: Math.min(4, Math.max(2, availableParallelism())),
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 600_000,
          fileParallelism: false,
          // One module graph per worker: test/e2e/harness.ts keeps one browser and one server per
          // site variant for every file the worker runs, instead of one of each per file.
          isolate: false,
          globalSetup: ['test/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
