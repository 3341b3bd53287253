// `npm run build` compiles the e2e hooks out: their strings are in the test build's scripts and in
// none of the production build's (so a built site downloads Hub models from the Hub only), and a
// production page has no `window.memlens`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite, buildSiteTo } from '../../scripts/lib/site-build.ts';
import { useHarness } from './harness.ts';

/**
 * In the automation hook, the probe-failure switch and its worker message, and the stand-in Hub
 * under the site that a test build downloads Hub models from (embed/hub-model.ts).
 */
const HOOK_MARKERS = ['window.memlens', 'webgpuProbe', './hub'];

async function scripts(dir: string, rel = ''): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== 'data' && entry.name !== 'models') {
      out.push(...(await scripts(dir, name)));
    } else if (/\.m?js$/.test(entry.name)) {
      out.push({ file: name, text: await readFile(path.join(dir, name), 'utf8') });
    }
  }
  return out;
}

function withMarker(files: { file: string; text: string }[], marker: string): string[] {
  return files.filter((f) => f.text.includes(marker)).map((f) => f.file);
}

const harness = useHarness();
let production: string;
let server: StaticServer;

beforeAll(async () => {
  production = await mkdtemp(path.join(tmpdir(), 'memlens-production-'));
  await buildSiteTo(production, { testHooks: false });
  server = await harness.serve({ root: production, base: E2E_BASE });
});

afterAll(async () => {
  if (production) await rm(production, { recursive: true, force: true });
});

describe('test hooks', () => {
  it('are in the test build and in no script of the production build', async () => {
    const testBuild = await scripts(await buildSite());
    const productionBuild = await scripts(production);
    expect(productionBuild.length).toBeGreaterThan(3);
    for (const marker of HOOK_MARKERS) {
      expect(withMarker(testBuild, marker), marker).not.toEqual([]);
      expect(withMarker(productionBuild, marker), marker).toEqual([]);
    }
  });

  it('leave no window.memlens on a production Embeddings page', async () => {
    const { page, watch } = await harness.tab();
    await page.goto(`${server.url}#/embeddings?model=tiny-bert&webgpuProbe=fail`);
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 120_000 });
    await page.locator('.device-panel').waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => 'memlens' in window)).toBe(false);
    expect(watch.foreignRequests(server.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await page.close();
  });
});
