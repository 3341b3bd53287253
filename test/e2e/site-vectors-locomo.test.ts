// LoCoMo-Conv from the site's vectors: the test build is served with MiniLM fp32's InMind pack
// (precached) and its LoCoMo-Conv pack (fetched on first use), as `npm run vectors` makes them;
// Reproduce draws LoCoMo-Conv from the latter without fetching the model (before, the page took
// InMind's pack, missed its texts and embedded the 8,252 in the browser: minutes), and "Verify
// here" re-embeds a seeded sample of the pack's texts and reports the largest deviation.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { SITE_PACK_GROUPS } from '../../scripts/lib/site-vectors.ts';
import type { SitePackEntry } from '../../src/lib/vectors/site-packs.ts';
import { useHarness } from './harness.ts';

const groups = SITE_PACK_GROUPS.filter((g) => g.name === 'inmind' || g.name === 'locomo-conv');
const harness = useHarness({
  site: { packs: { models: ['minilm'], dtypes: ['fp32'], groups } },
});
let page: Page;
let watch: PageWatch;
let conv: SitePackEntry;

beforeAll(async () => {
  const found = harness.packs.find((p) => p.protocols.includes('locomo-conv'));
  if (!found) throw new Error('no LoCoMo-Conv pack');
  conv = found;
  ({ page, watch } = await harness.tab());
}, 600_000);

const modelRequests = () => harness.site.requests.filter((p) => p.includes('/models/minilm/'));
const HISTOGRAM = '[data-chart="reproduce-similarity"] .chart-canvas';

async function show(ret: string, timeout: number): Promise<void> {
  await page.goto(`${harness.site.url}#/reproduce?bench=locomo-conv&ret=${ret}`);
  await page
    .locator(`[data-phase="done"][data-benchmark="locomo-conv"][data-retriever="${ret}"]`)
    .waitFor({ timeout });
}

describe("Reproduce LoCoMo-Conv from the site's vectors", () => {
  it('draws MiniLM from the LoCoMo-Conv pack: no model fetched, nothing embedded here', async () => {
    expect(conv.file).toBe('minilm-fp32-locomo-conv.on-use.parquet');
    await show('bm25', 180_000);
    const started = Date.now();
    // Embedding the 8,252 texts here takes minutes: a minute is far past drawing from the pack.
    await show('minilm', 60_000);
    await page.locator(HISTOGRAM).waitFor();
    console.info(
      `LoCoMo-Conv, MiniLM fp32 pack: BM25 shown → histogram ${Date.now() - started} ms`,
    );
    const line = page.locator('[data-vector-source="site"] [data-field="vector-source"]');
    expect(await line.innerText()).toBe(
      `From the site's vectors (all-MiniLM-L6-v2, fp32, sha256 ${conv.sha256.slice(0, 12)}…): ${conv.rows.toLocaleString('en')} vectors embedded with onnxruntime-node cpu when the site was built; nothing was embedded in this browser.`,
    );
    expect(modelRequests()).toEqual([]);
    expect(harness.site.requests.some((p) => p.endsWith(`/vectors/${conv.file}`))).toBe(true);
  }, 400_000);

  it('Verify here re-embeds a seeded sample of the pack on WASM and reports its largest deviation', async () => {
    const started = Date.now();
    await page.getByRole('button', { name: 'Verify here' }).click();
    expect(page.url()).toContain('vectors=verify');
    const line = page.locator('[data-vector-source="verified"]');
    await line.waitFor({ timeout: 300_000 });
    console.info(`LoCoMo-Conv, MiniLM fp32, Verify here: ${Date.now() - started} ms`);
    expect(await line.locator('[data-field="vector-source"]').innerText()).toMatch(
      new RegExp(
        `^From the site's vectors \\(all-MiniLM-L6-v2, fp32, sha256 ${conv.sha256.slice(0, 12)}…\\), verified in this browser \\(WASM(?: · probe: .+?)?\\): \\d+ texts of its ${conv.rows.toLocaleString('en')} \\(seeded sample, seed memlens-verify-1\\) re-embedded here, max deviation \\d\\.\\de-\\d+\\.$`,
      ),
    );
    const deviation = Number(await line.getAttribute('data-max-deviation'));
    console.info(
      `LoCoMo-Conv pack (onnxruntime-node) vs browser WASM, MiniLM: max |Δ| ${deviation}`,
    );
    expect(deviation).toBeLessThan(1e-5);
    expect(modelRequests().length).toBeGreaterThan(0);
    await page.getByRole('button', { name: "Use the site's vectors" }).click();
    await page.locator('[data-vector-source="site"]').waitFor();
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 400_000);
});
