// The site's own vectors: `npm run vectors`' library writes MiniLM's and tiny-bert's packs of
// InMind Figure 4's and naive RAG's texts (onnxruntime-node), the test build is served with them,
// and the Reproduce page draws Figure 4 from the pack without fetching the model; "Recompute in
// this browser" embeds on WASM and reports the max deviation from the pack; the Playground ranks
// the background turns from the pack and embeds only the typed texts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { SITE_PACK_GROUPS } from '../../scripts/lib/site-vectors.ts';
import type { SitePackEntry } from '../../src/lib/vectors/site-packs.ts';
import { useHarness } from './harness.ts';

// InMind's pack only: LoCoMo's are site-vectors-locomo.test.ts's.
const groups = SITE_PACK_GROUPS.filter((g) => g.name === 'inmind');
const harness = useHarness({
  site: { packs: { models: ['minilm', 'tiny-bert'], dtypes: ['fp32'], groups } },
});
let page: Page;
let watch: PageWatch;
let packs: Map<string, SitePackEntry>;

beforeAll(async () => {
  packs = new Map(harness.packs.map((p) => [p.model, p]));
  ({ page, watch } = await harness.tab());
}, 600_000);

const modelRequests = (id: string) =>
  harness.site.requests.filter((p) => p.includes(`/models/${id}/`));
const HISTOGRAM = '[data-chart="reproduce-similarity"] .chart-canvas';

function packOf(id: string): SitePackEntry {
  const pack = packs.get(id);
  if (!pack) throw new Error(`no pack for ${id}`);
  return pack;
}

async function figure4(ret: string): Promise<void> {
  await page.goto(`${harness.site.url}#/reproduce?bench=inmind-figure4&ret=${ret}`);
  await page
    .locator(`[data-phase="done"][data-benchmark="inmind-figure4"][data-retriever="${ret}"]`)
    .waitFor({ timeout: 180_000 });
}

describe("Reproduce InMind Figure 4 from the site's vectors", () => {
  it('draws MiniLM from the pack without loading the model, and says so', async () => {
    const pack = packOf('minilm');
    expect(pack.rows).toBeGreaterThan(700);
    await figure4('bm25');
    const started = Date.now();
    await figure4('minilm');
    const line = page.locator('[data-vector-source="site"]');
    await page.locator(HISTOGRAM).waitFor();
    console.info(
      `site's vectors, MiniLM: BM25 shown → MiniLM histogram ${Date.now() - started} ms`,
    );
    expect(await line.locator('[data-field="vector-source"]').innerText()).toBe(
      `From the site's vectors (all-MiniLM-L6-v2, fp32, sha256 ${pack.sha256.slice(0, 12)}…): ${pack.rows.toLocaleString('en')} vectors embedded with onnxruntime-node cpu when the site was built; nothing was embedded in this browser.`,
    );
    expect(modelRequests('minilm')).toEqual([]);
    // Warm: the pack is fetched and its vectors are held; the view comes back without fetching.
    await figure4('bm25');
    const again = Date.now();
    const packFetches = harness.site.requests.filter((p) => p.endsWith('.parquet')).length;
    await figure4('minilm');
    await page.locator(HISTOGRAM).waitFor();
    console.info(`site's vectors, MiniLM, warm: BM25 shown → histogram ${Date.now() - again} ms`);
    expect(harness.site.requests.filter((p) => p.endsWith('.parquet'))).toHaveLength(packFetches);
  }, 400_000);

  // tiny-bert, not MiniLM: MiniLM's 731 texts take minutes on WASM here (docs/performance.md).
  it('recomputes in this browser on WASM and reports the max deviation from the pack', async () => {
    const pack = packOf('tiny-bert');
    await figure4('tiny-bert');
    await page.locator('[data-vector-source="site"]').waitFor();
    expect(modelRequests('tiny-bert')).toEqual([]);
    await page.getByRole('button', { name: 'Recompute in this browser' }).click();
    expect(page.url()).toContain('vectors=browser');
    const line = page.locator('[data-vector-source="recomputed"]');
    await line.waitFor({ timeout: 300_000 });
    const text = await line.locator('[data-field="vector-source"]').innerText();
    expect(text).toMatch(
      new RegExp(
        `^Recomputed in this browser \\(WASM(?: · probe: .+?)?\\): max deviation from the site's vectors \\(fp32, sha256 ${pack.sha256.slice(0, 12)}…\\) \\d\\.\\de-\\d+ over [\\d,]+ vectors\\.$`,
      ),
    );
    const deviation = Number(await line.getAttribute('data-max-deviation'));
    console.info(`pack (onnxruntime-node) vs browser WASM, tiny-bert: max |Δ| ${deviation}`);
    expect(deviation).toBeLessThan(1e-5);
    expect(modelRequests('tiny-bert').length).toBeGreaterThan(0);
    await page.getByRole('button', { name: "Use the site's vectors" }).click();
    await page.locator('[data-vector-source="site"]').waitFor();
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 400_000);

  it('ranks the Playground with MiniLM from the pack: only the typed texts are embedded here', async () => {
    const pack = packOf('minilm');
    const started = Date.now();
    await page.goto(`${harness.site.url}#/playground?step=3&r=minilm&qv=indirect`);
    const cell = page
      .locator('[data-playground-ranks] tbody tr')
      .first()
      .locator('td[data-retriever="minilm"]');
    await expect.poll(() => cell.innerText(), { timeout: 300_000 }).toMatch(/^#\d+ · /);
    console.info(`site's vectors, Playground step 3 with MiniLM: ${Date.now() - started} ms`);
    const backend = await page.locator('[data-field="backend"]').innerText();
    expect(backend).toMatch(
      new RegExp(
        `^Computed on WASM( · probe: 24 texts, [^;]+)?; 486 texts from the site's vectors \\(sha256 ${pack.sha256.slice(0, 12)}…\\), \\d+ embedded in this browser\\.$`,
      ),
    );
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 400_000);
});
