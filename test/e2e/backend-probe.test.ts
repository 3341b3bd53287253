// A backend proves itself before its numbers are shown: the probe texts' vectors against the
// reference vectors (data/probes.json). A WebGPU whose vectors are perturbed (test builds'
// `probePerturb=webgpu`) is refused with its worst cosine on the page, and WASM runs instead;
// WebGPU on SwiftShader passes. The worst cosines each backend reached are printed.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { EMBED_BUTTON, waitForEmbedReady, type WatchedPage } from '../lib/embed/page-helpers.ts';
import { PROBES } from '../../src/lib/embed/probe-registry.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const LOAD_MS = 180_000;
const SLOW_MS = 1_200_000;
const WASM_TEXTS = PROBES.texts.length;
const WEBGPU_TEXTS = PROBES.webgpu.length;
const probeLine = (texts: number) =>
  new RegExp(
    `^probe: ${texts} texts, worst cosine (1|1 − \\d\\.\\de-\\d+|0\\.\\d{5}) ≥ 0\\.\\d+ vs .+$`,
  );

async function open(webgpu: boolean, hash: string): Promise<WatchedPage> {
  const tab = await harness.tab({ webgpu });
  await tab.page.goto(`${harness.site.url}#/embeddings?${hash}`);
  await waitForEmbedReady(tab.page);
  return tab;
}

async function loadOn(page: Page, timeout = LOAD_MS): Promise<string> {
  await page.getByRole('button', { name: 'Load model' }).click();
  const panel = page.locator(
    '.device-panel[data-backend="wasm"], .device-panel[data-backend="webgpu"]',
  );
  await panel.waitFor({ timeout });
  return (await panel.getAttribute('data-backend')) ?? '';
}

function expectClean(tab: WatchedPage) {
  expect(tab.watch.foreignRequests(harness.site.origin)).toEqual([]);
  expect(tab.watch.consoleErrors).toEqual([]);
}

describe('the backend probe', () => {
  it('refuses a perturbed WebGPU, naming its worst cosine, and runs on WASM', async () => {
    const tab = await open(true, 'model=tiny-bert&device=webgpu&probePerturb=webgpu');
    const { page } = tab;
    expect(await loadOn(page)).toBe('wasm');
    const why = await page.locator('[data-field="fallback"]').innerText();
    expect(why).toMatch(
      new RegExp(
        `^WebGPU probe failed: its vectors disagree with the reference: worst cosine -?\\d\\.\\d{5} < 0\\.9999 over ${WEBGPU_TEXTS} probe texts`,
      ),
    );
    expect(await page.locator('[data-device-fallback]').innerText()).toContain(why);
    expect(await page.locator('[data-field="probe"]').innerText()).toMatch(probeLine(WASM_TEXTS));
    await page.getByRole('button', { name: EMBED_BUTTON }).click();
    await page.waitForSelector('.page[data-phase="done"]', { timeout: LOAD_MS });
    expect(await page.locator('[data-field="ran-on"]').innerText()).toMatch(
      new RegExp(`^WASM · probe: ${WASM_TEXTS} texts, worst cosine `),
    );
    console.log(`perturbed WebGPU: ${why}`);
    expectClean(tab);
  });

  it('accepts WebGPU on SwiftShader (forced) and names the check it passed', async () => {
    const tab = await open(true, 'model=tiny-bert&device=webgpu');
    expect(await loadOn(tab.page)).toBe('webgpu');
    const line = await tab.page.locator('[data-field="probe"]').innerText();
    expect(line).toMatch(probeLine(WEBGPU_TEXTS));
    console.log(`tiny-bert fp32, SwiftShader WebGPU: ${line}`);
    expectClean(tab);
  });

  // The figures docs/embeddings.md gives. MiniLM on SwiftShader takes over a minute per dtype (WebGPU
  // emulated on the CPU, each new input shape compiled again): measured on asking only
  // (MEMLENS_PROBE_SWIFTSHADER=1); tiny-bert above covers SwiftShader in every run.
  const swiftshader = process.env.MEMLENS_PROBE_SWIFTSHADER === '1';
  const cases = [
    { webgpu: false, device: 'wasm', dtype: 'fp32', run: true },
    { webgpu: false, device: 'wasm', dtype: 'q8', run: true },
    { webgpu: true, device: 'webgpu', dtype: 'fp32', run: swiftshader },
    { webgpu: true, device: 'webgpu', dtype: 'q8', run: swiftshader },
  ] as const;
  for (const c of cases) {
    it.runIf(c.run)(
      `MiniLM ${c.dtype} on ${c.device} passes its probe`,
      async () => {
        const tab = await open(c.webgpu, `model=minilm&device=${c.device}&dtype=${c.dtype}`);
        expect(await loadOn(tab.page, SLOW_MS)).toBe(c.device);
        const line = await tab.page.locator('[data-field="probe"]').innerText();
        console.log(`MiniLM ${c.dtype}, ${c.device}: ${line}`);
        expect(line).toMatch(probeLine(c.webgpu ? WEBGPU_TEXTS : WASM_TEXTS));
        expectClean(tab);
      },
      SLOW_MS + 60_000,
    );
  }
});
