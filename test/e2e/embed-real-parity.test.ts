// Real all-MiniLM-L6-v2 in Chromium (WASM and WebGPU on SwiftShader) against Node's
// onnxruntime-node and the sentence-transformers reference, on ≥ 1,000 benchmark texts; then the
// Reproduce page, drawing those Chromium vectors from the browser's vector cache, gives the CLI's
// InMind recall (onnxruntime-node) in every series and domain, which can only hold if every
// query's target ranks agree.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { openSiteCatalog, parseArgs, reproduce, type CliRun } from '../../scripts/reproduce.ts';
import { formatHits, formatPercent } from '../../src/lib/protocol-kit/report.ts';
import { recallTable } from '../../src/lib/protocol-kit/summary.ts';
import { recallCells, showView } from '../lib/protocols/page-helpers.ts';
import type { AutomationRequest, AutomationResult } from '../../src/lib/embed/automation.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import type { Embeddings } from '../../src/lib/embed/node-embedder.ts';
import { parityCorpus, type ParityText } from '../../scripts/lib/parity-corpus.ts';
import { referenceEmbeddings, type ReferenceRun } from '../../scripts/lib/python-reference.ts';
import { quantiles, rowCosines, selectRows, topK, type Matrix } from '../../scripts/lib/ranking.ts';
import { runNodeVectors } from '../support/run-vectors.ts';
import { useHarness } from './harness.ts';

const MIN_COSINE = 0.99999;
// SwiftShader emulates the GPU on the CPU (each new input shape compiles its kernels again): a few
// short texts keep this case within a minute.
const WEBGPU_TEXTS = 6;
// Each browser case embeds hundreds of texts in WASM: the fp32 one took past Vitest's 300 s in a
// CI run where every file ran about twice as slow as usual (the file 418 s): bounded by the work,
// not by the default.
const BROWSER_CASE_MS = 900_000;
// Reproduce's InMind view with its vectors cached but 125: seconds; a bound for a hung run.
const CACHED_VIEW_MS = 180_000;
const INMIND_TASKS = 125;
const spec = getModelSpec('minilm');

// Cross-origin isolated, as the service worker makes the site: WASM runs threaded.
const harness = useHarness({ site: 'isolated' });
let corpus: ParityText[];
let reference: ReferenceRun;
let node: Embeddings;
let cli: CliRun;
/** The tab that embedded the corpus through its vector cache, open for Reproduce. */
let cachedTab: { page: Page; watch: PageWatch } | null = null;

beforeAll(async () => {
  corpus = await parityCorpus();
  reference = await referenceEmbeddings(
    spec,
    corpus.map((t) => t.text),
    'sentence-transformers',
  );
  // The same vectors test/lib/embed/real-model-parity.test.ts computed earlier in this run.
  node = await runNodeVectors(
    'minilm',
    'fp32',
    corpus.map((t) => t.text),
  );
  const { catalog, close } = await openSiteCatalog(path.join(repoRoot, 'public'));
  try {
    cli = await reproduce(parseArgs(['--benchmark', 'inmind', '--model', 'minilm']), catalog);
  } finally {
    await close();
  }
}, 900_000);

async function openEmbeddings(webgpu: boolean): Promise<{ page: Page; watch: PageWatch }> {
  const { page, watch } = await harness.open('#/embeddings', { webgpu });
  await page.waitForFunction(() => window.memlens !== undefined);
  return { page, watch };
}

async function embedIn(page: Page, request: Omit<AutomationRequest, 'model'>) {
  const full: AutomationRequest = { model: 'minilm', ...request };
  return page.evaluate((req) => window.memlens!.embed(req), full);
}

async function embedInChromium(webgpu: boolean, request: Omit<AutomationRequest, 'model'>) {
  const { page, watch } = await openEmbeddings(webgpu);
  const result: AutomationResult = await embedIn(page, request);
  await page.context().close();
  return { result, watch };
}

function inmindTop10(m: Matrix): string[] {
  const queries = corpus.flatMap((t, i) => (t.id.endsWith('.query') ? [i] : []));
  const docs = corpus.flatMap((t, i) =>
    t.source === 'lme-s' || t.id.endsWith('.user_message') ? [i] : [],
  );
  return topK(selectRows(m, queries), selectRows(m, docs), 10).map((r) => r.join());
}

const gap = (cos: number[]) => (1 - Math.min(...cos)).toExponential(2);

describe('all-MiniLM-L6-v2 in Chromium against onnxruntime-node and sentence-transformers', () => {
  it(
    `WASM fp32 on ${'≥'} 1,000 texts: min per-text cosine ≥ ${MIN_COSINE}, InMind top-10 identical`,
    async () => {
      // Through the vector cache, as a page's run: the Reproduce case below draws from it.
      cachedTab = await openEmbeddings(false);
      const { watch } = cachedTab;
      const result = await embedIn(cachedTab.page, {
        texts: corpus.map((t) => t.text),
        device: 'wasm',
        dtype: 'fp32',
        cached: true,
      });
      expect(result.report.backend).toBe('wasm');
      expect(result.report.source).toBe('site');
      const browser: Matrix = { vectors: result.vectors, dim: result.dim };
      const vsReference = rowCosines(browser, reference);
      const vsNode = rowCosines(browser, node);
      console.info(
        `minilm fp32 Chromium WASM (${result.report.threads} threads) over ${corpus.length} texts: 1 − min cosine vs sentence-transformers ${gap(vsReference)}, vs onnxruntime-node ${gap(vsNode)}; node vs reference ${gap(rowCosines(node, reference))}`,
      );
      expect(corpus.length).toBeGreaterThanOrEqual(1000);
      expect(Math.min(...vsReference)).toBeGreaterThanOrEqual(MIN_COSINE);
      expect(Math.min(...vsNode)).toBeGreaterThanOrEqual(MIN_COSINE);
      const ours = inmindTop10(browser);
      expect(ours).toHaveLength(125);
      expect(ours).toEqual(inmindTop10(node));
      expect(ours).toEqual(inmindTop10(reference));
      expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
    },
    BROWSER_CASE_MS,
  );

  it(
    'Reproduce, from those vectors in the cache, shows the CLI recall@1, @5 and @10 in every series and domain',
    async () => {
      if (!cachedTab) throw new Error('the fp32 case did not leave its browser open');
      const { page, watch } = cachedTab;
      for (const k of [1, 5, 10]) {
        await showView(
          page,
          harness.site.url,
          { bench: 'inmind', ret: 'minilm', k },
          { device: 'wasm' },
          CACHED_VIEW_MS,
        );
        const timings = page.locator('[data-field="timings"]');
        const cached = Number(await timings.locator('[data-field="cached"]').innerText());
        const total = Number((await timings.innerText()).match(/of (\d+) texts from/)?.[1]);
        expect(total).toBeGreaterThan(800);
        // The page embeds only the 125 injected chunks (user + assistant message), which the
        // parity corpus does not hold; the other k reuse that run.
        expect(cached).toBeGreaterThanOrEqual(total - INMIND_TASKS);
        const shown = await recallCells(page);
        const expected = recallTable(cli.evaluation, k);
        expect(shown.size).toBe(expected.length);
        for (const c of expected) {
          const cell = shown.get(c.group === null ? c.series : `${c.series}|${c.group}`);
          expect(cell?.recall, `${c.series} ${c.group} @${k}`).toContain(formatPercent(c.recall));
          expect(cell?.hits, `${c.series} ${c.group} @${k}`).toContain(formatHits(c));
        }
        console.info(
          `minilm recall@${k}: page naive ${shown.get('naive')?.recall}, indirect ${shown.get('indirect')?.recall} (${cached} of ${total} texts cached)`,
        );
      }
      // The numbers published in data/reproduced/memlens.csv are the ones this page computes.
      const published = await page
        .locator('[data-table="published"] tr[data-column="recall@5 · naive"] [data-field="value"]')
        .textContent();
      const live = recallTable(cli.evaluation, 5).find(
        (c) => c.series === 'naive' && c.group === null,
      );
      expect(published?.trim()).toBe(`${Number(((live?.recall ?? 0) * 100).toFixed(2))}%`);
      expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
      await page.context().close();
    },
    CACHED_VIEW_MS * 3,
  );

  it(
    `WebGPU (SwiftShader, CPU emulation) fp32 on ${WEBGPU_TEXTS} texts matches the reference`,
    async () => {
      const short = corpus.flatMap((t, i) => (t.source !== 'lme-s' ? [i] : []));
      const step = Math.floor(short.length / WEBGPU_TEXTS);
      const rows = Array.from({ length: WEBGPU_TEXTS }, (_, i) => short[i * step]);
      const { result, watch } = await embedInChromium(true, {
        texts: rows.map((r) => corpus[r].text),
        device: 'webgpu',
        dtype: 'fp32',
      });
      expect(result.report.backend, result.report.fallbackReason ?? '').toBe('webgpu');
      const cos = rowCosines(
        { vectors: result.vectors, dim: result.dim },
        selectRows(reference, rows),
      );
      console.info(
        `minilm fp32 Chromium WebGPU (SwiftShader) over ${rows.length} texts: 1 − min cosine vs sentence-transformers ${gap(cos)}`,
      );
      expect(Math.min(...cos)).toBeGreaterThanOrEqual(MIN_COSINE);
      expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    },
    BROWSER_CASE_MS,
  );

  // Integer kernels differ between onnxruntime-web and onnxruntime-node, so q8 vectors are
  // backend-dependent: both stay as close to fp32 as each other, not to each other.
  it(
    'WASM q8 stays as close to fp32 as onnxruntime-node q8 does',
    async () => {
      const texts = corpus.slice(0, 300).map((t) => t.text);
      const { result } = await embedInChromium(false, { texts, device: 'wasm', dtype: 'q8' });
      const nodeQ8 = selectRows(
        await runNodeVectors(
          'minilm',
          'q8',
          corpus.map((t) => t.text),
        ),
        texts.map((_, i) => i),
      );
      const browser: Matrix = { vectors: result.vectors, dim: result.dim };
      const fp32 = selectRows(
        reference,
        texts.map((_, i) => i),
      );
      const show = (xs: number[]) =>
        quantiles(xs, [0, 0.01, 0.5])
          .map((x) => x.toFixed(5))
          .join(' / ');
      const browserVsFp32 = rowCosines(browser, fp32);
      const nodeVsFp32 = rowCosines(nodeQ8, fp32);
      console.info(
        `minilm q8 over ${texts.length} texts, cosine min/p1/median — Chromium WASM vs fp32: ${show(browserVsFp32)}; onnxruntime-node vs fp32: ${show(nodeVsFp32)}; Chromium vs node q8: ${show(rowCosines(browser, nodeQ8))}`,
      );
      const [bMin, , bMedian] = quantiles(browserVsFp32, [0, 0.01, 0.5]);
      const [nMin, , nMedian] = quantiles(nodeVsFp32, [0, 0.01, 0.5]);
      expect(bMedian).toBeGreaterThan(0.99);
      expect(bMin).toBeGreaterThan(0.97);
      expect(Math.abs(bMedian - nMedian)).toBeLessThan(0.002);
      expect(Math.abs(bMin - nMin)).toBeLessThan(0.01);
    },
    BROWSER_CASE_MS,
  );
});
