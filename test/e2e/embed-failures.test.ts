import { beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE } from '../../scripts/lib/site-build.ts';
import { EMBED_BUTTON, waitForEmbedReady, type WatchedPage } from '../lib/embed/page-helpers.ts';
import { buildCopy, useHarness } from './harness.ts';

// The one console error a missing model file may cause: Chromium logs every 404 response, here
// the HEAD request that finds tokenizer.json missing. Its URL is checked via failedResponses.
const MISSING_FILE_404 =
  'Failed to load resource: the server responded with a status of 404 (Not Found)';

const harness = useHarness({ site: 'plain', expectedErrors: [MISSING_FILE_404] });
let brokenServer: StaticServer;

beforeAll(async () => {
  // A copy of hard links: deleting in it spares the build.
  const copy = await buildCopy('broken');
  await rm(path.join(copy, 'models/tiny-bert/tokenizer.json'));
  brokenServer = await harness.serve({ root: copy, base: E2E_BASE });
});

async function open(webgpu: boolean, url: string): Promise<WatchedPage> {
  const tab = await harness.tab({ webgpu });
  await tab.page.goto(url);
  return tab;
}

function expectClean(tab: WatchedPage, origin: string, allowedErrors: string[] = []) {
  expect(tab.watch.foreignRequests(origin)).toEqual([]);
  const unexpected = tab.watch.consoleErrors.filter((e) => !allowedErrors.includes(e));
  expect(unexpected, tab.failedResponses.join('\n')).toEqual([]);
}

describe('embedding failure paths', () => {
  it('names a missing model file and leaves the app usable', async () => {
    const tab = await open(false, `${brokenServer.url}#/embeddings?model=tiny-bert&device=wasm`);
    const { page } = tab;
    await waitForEmbedReady(page);
    await page.getByRole('button', { name: EMBED_BUTTON }).click();
    const alert = page.locator('.page [role="alert"]');
    await alert.waitFor();
    const message = await alert.innerText();
    expect(message).toContain('Model "tiny-bert" is missing tokenizer.json');
    expect(message).toContain('/memlens/models/tiny-bert/');
    expect(message).toContain('npm run models');
    expect(await page.locator('[data-phase]').getAttribute('data-phase')).toBe('error');
    expect(await page.getByRole('button', { name: EMBED_BUTTON }).isEnabled()).toBe(true);

    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/home'));
    await page.locator('main h1').first().waitFor();
    await page.getByRole('link', { name: 'Embeddings', exact: true }).click();
    await waitForEmbedReady(page);
    expect(await page.locator('.page [role="alert"]').count()).toBe(0);

    // Once the site's service worker controls the page it repeats the request: same URL twice.
    expect([...new Set(tab.failedResponses)]).toEqual([
      `404 ${brokenServer.url}models/tiny-bert/tokenizer.json`,
    ]);
    expectClean(tab, brokenServer.origin, [MISSING_FILE_404]);
    expect(tab.watch.consoleErrors).toEqual([MISSING_FILE_404]);
  });

  it('falls back to WASM and says why when there is no WebGPU adapter', async () => {
    // The harness's browser without WebGPU flags runs with --disable-gpu: navigator.gpu has no adapter.
    const tab = await open(false, `${harness.site.url}#/embeddings?model=tiny-bert`);
    const { page } = tab;
    await waitForEmbedReady(page);
    await page.getByRole('button', { name: 'Load model' }).click();
    await page.waitForSelector('.device-panel[data-backend="wasm"]', { timeout: 60_000 });
    expect(await page.locator('[data-field="fallback"]').innerText()).toContain('no WebGPU');
    expect(await page.locator('[data-field="adapter"]').innerText()).toContain('no adapter');
    const threads = await page.evaluate(() =>
      crossOriginIsolated ? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)) : 1,
    );
    expect(await page.locator('[data-field="threads"]').innerText()).toMatch(
      new RegExp(`^${threads}\\b`),
    );
    expectClean(tab, harness.site.origin);
  });

  it('says so visibly when a forced WebGPU falls back to WASM', async () => {
    const tab = await open(false, `${harness.site.url}#/embeddings?model=tiny-bert&device=webgpu`);
    const { page } = tab;
    await waitForEmbedReady(page);
    await page.getByRole('button', { name: 'Load model' }).click();
    await page.waitForSelector('.device-panel[data-backend="wasm"]', { timeout: 60_000 });
    expect(await page.locator('[data-device-fallback]').innerText()).toMatch(
      /^WebGPU was asked for, but this model runs on WASM: .*no WebGPU/,
    );
    expectClean(tab, harness.site.origin);
  });

  it('never picks the software adapter (SwiftShader) on auto: WASM, saying why', async () => {
    // Headless Chromium's only WebGPU adapter here is SwiftShader: WebGPU emulated on the CPU.
    const tab = await open(true, `${harness.site.url}#/embeddings?model=tiny-bert`);
    const { page } = tab;
    await waitForEmbedReady(page);
    await page.getByRole('button', { name: EMBED_BUTTON }).click();
    await page.waitForSelector('.page[data-phase="done"]', { timeout: 120_000 });
    expect(await page.locator('.device-panel').getAttribute('data-backend')).toBe('wasm');
    // Chromium flags SwiftShader as a fallback adapter; its info names it.
    expect(await page.locator('[data-field="fallback"]').innerText()).toMatch(
      /^no hardware GPU: WebGPU's adapter is a fallback adapter \(.*swiftshader.*\)$/,
    );
    expect(await page.locator('[data-field="ran-on"]').innerText()).toMatch(/^WASM · probe: /);
    expect(await page.locator('[data-device-emulated]').count()).toBe(0);
    expectClean(tab, harness.site.origin);
  });

  it('says a forced WebGPU on the software adapter is emulated', async () => {
    const tab = await open(true, `${harness.site.url}#/embeddings?model=tiny-bert&device=webgpu`);
    const { page } = tab;
    await waitForEmbedReady(page);
    await page.getByRole('button', { name: 'Load model' }).click();
    await page.waitForSelector('.device-panel[data-backend="webgpu"]', { timeout: 120_000 });
    expect(await page.locator('[data-device-emulated]').innerText()).toMatch(
      /^WebGPU runs here on a fallback adapter \(.*swiftshader.*\): emulated on the CPU/,
    );
    expect(await page.locator('[data-field="backend"]').innerText()).toMatch(
      /^WebGPU \(emulated on the CPU: a fallback adapter \(.*swiftshader.*\)\)$/,
    );
    expectClean(tab, harness.site.origin);
  });

  it('falls back to WASM and says why when the WebGPU probe fails', async () => {
    const tab = await open(
      true,
      `${harness.site.url}#/embeddings?model=tiny-bert&device=webgpu&webgpuProbe=fail`,
    );
    const { page } = tab;
    await waitForEmbedReady(page);
    await page.getByRole('button', { name: 'Load model' }).click();
    await page.waitForSelector('.device-panel[data-backend="wasm"]', { timeout: 120_000 });
    expect(await page.locator('[data-field="fallback"]').innerText()).toContain(
      'WebGPU probe failed: probe failure forced',
    );
    expect(await page.locator('[data-field="adapter"]').innerText()).toContain('swiftshader');
    expectClean(tab, harness.site.origin);
  });
});
