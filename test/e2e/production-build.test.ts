// `npm run build` compiles the e2e hooks out: their strings are in the test build's scripts and in
// none of the production build's (so a built site downloads Hub models from the Hub only), and a
// production page has no `window.memlens`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
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
    await page.goto(`${server.url}#/embeddings?webgpuProbe=fail`);
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 120_000 });
    await page.locator('.device-panel').waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => 'memlens' in window)).toBe(false);
    expect(watch.foreignRequests(server.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await page.close();
  });
});

describe('the test model (tiny-bert, random weights)', () => {
  it('ships in the test build only, and no production menu offers it', async () => {
    expect(existsSync(path.join(await buildSite(), 'models/tiny-bert'))).toBe(true);
    expect(existsSync(path.join(production, 'models/tiny-bert'))).toBe(false);
    const manifest = await readFile(path.join(production, 'precache-manifest.json'), 'utf8');
    expect(manifest).not.toContain('tiny-bert');
    const { page, watch } = await harness.tab();
    await page.goto(`${server.url}#/reproduce?bench=inmind&ret=bm25`);
    const picker = page.getByRole('combobox', { name: 'Retriever / model' });
    await expect
      .poll(() => picker.locator('option').count(), { timeout: 120_000 })
      .toBeGreaterThan(1);
    // The site's models are known once a served dtype is offered (`ID:DTYPE`).
    await expect
      .poll(() => picker.locator('option[value*=":"]').count(), { timeout: 120_000 })
      .toBeGreaterThan(0);
    expect(await picker.locator('option[value^="tiny-bert"]').count()).toBe(0);
    await page.goto(`${server.url}#/playground`);
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle');
    expect(await page.locator('[data-test-model]').count()).toBe(0);
    await page.goto(`${server.url}#/home`);
    await page
      .locator('[data-testid="site-models"] tr[data-model]')
      .first()
      .waitFor({ timeout: 120_000 });
    expect(await page.locator('tr[data-model="tiny-bert"]').count()).toBe(0);
    expect(watch.foreignRequests(server.origin)).toEqual([]);
    await page.close();
  }, 300_000);
});
