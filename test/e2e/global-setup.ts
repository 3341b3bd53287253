import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSite } from '../../scripts/lib/site-build.ts';
import { ensureTestModels } from '../../scripts/fetch-models.ts';
import { RUN_DIR_ENV } from '../support/run-vectors.ts';

const BUILD_WAIT_MS = 600_000;

async function buildOnce(): Promise<void> {
  await ensureTestModels(['tiny-bert', 'minilm']);
  await buildSite();
}

/**
 * npm test runs the e2e project in both lanes (scripts/run-tests.ts): the first to take the run's
 * lock builds dist-e2e/, the other waits for it instead of rebuilding what the first lane serves.
 */
async function buildOncePerRun(runDir: string): Promise<void> {
  const lock = path.join(runDir, 'e2e-site.lock');
  const done = path.join(lock, 'built');
  mkdirSync(runDir, { recursive: true });
  try {
    mkdirSync(lock);
  } catch {
    for (const started = Date.now(); !existsSync(done); await sleep(500)) {
      if (Date.now() - started > BUILD_WAIT_MS)
        throw new Error(`the other lane's e2e build did not finish in ${BUILD_WAIT_MS / 1000} s`);
    }
    return;
  }
  await buildOnce();
  writeFileSync(done, '');
}

export default async function setup(): Promise<void> {
  // The build copies public/models/ into the site; the embedding tests load tiny-bert and the
  // real MiniLM (exported from its pinned wheel) from it.
  const runDir = process.env[RUN_DIR_ENV];
  await (runDir ? buildOncePerRun(runDir) : buildOnce());
  process.env.MEMLENS_E2E_PREBUILT = '1';
}
