// MiniLM q8, the page's against the CLI's. The page runs q8 on onnxruntime-web's WASM in Chromium;
// the CLI runs it on the same runtime in Node, one text per pass as the page (node-runtime.ts,
// token-batches.ts): the vectors agree bit for bit, and the Reproduce page's comparison of BM25,
// MiniLM fp32 (from the site's pack) and MiniLM q8 (embedded in this browser) shows the CLI's
// paired numbers for every pair. Nothing here depends on the CPU: WASM SIMD's semantics are fixed.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import {
  openSiteCatalog,
  parseArgs,
  reproduceComparison,
  type CompareRun,
} from '../../scripts/reproduce.ts';
import { parityCorpus } from '../../scripts/lib/parity-corpus.ts';
import type { Embeddings } from '../../src/lib/embed/node-embedder.ts';
import { formatDelta, formatP } from '../../src/lib/protocol-kit/compare-report.ts';
import { runNodeVectors, storedRunRows } from '../support/run-vectors.ts';
import { useHarness } from './harness.ts';

const REFS = 'bm25,minilm:fp32,minilm:q8';
// InMind and LME-s texts, short to the longest (truncated at 128 tokens): every shape of pass.
const TEXTS = 120;
let texts: string[];
let node: Embeddings;
let cli: CompareRun;
let page: Page;
let watch: PageWatch;
// fp32 from its pack; no q8 pack, so the page embeds q8 itself.
const harness = useHarness({
  site: { packs: { models: ['minilm'], protocols: ['inmind'], dtypes: ['fp32'] } },
});

beforeAll(async () => {
  const corpus = await parityCorpus();
  const step = Math.floor(corpus.length / TEXTS);
  const rows = Array.from({ length: TEXTS }, (_, i) => i * step);
  texts = rows.map((r) => corpus[r].text);
  // Computed once per run: embed-real-parity and the unit parity test embed the whole corpus.
  node =
    (await storedRunRows(
      'minilm',
      'q8',
      corpus.map((t) => t.text),
      rows,
    )) ?? (await runNodeVectors('minilm', 'q8', texts));
  const { catalog, close } = await openSiteCatalog(path.join(repoRoot, 'public'));
  try {
    const opts = parseArgs(['--benchmark', 'inmind', '--compare', REFS]);
    cli = await reproduceComparison(opts, opts.compare ?? [], catalog);
  } finally {
    await close();
  }
  ({ page, watch } = await harness.tab());
}, 900_000);

describe('MiniLM q8: the page (Chromium WASM) and the CLI (onnxruntime-web WASM in Node)', () => {
  it(`embed ${TEXTS} texts to the same bits`, async () => {
    await page.goto(`${harness.site.url}#/embeddings`);
    await page.waitForFunction(() => window.memlens !== undefined);
    const result = await page.evaluate((req) => window.memlens!.embed(req), {
      model: 'minilm',
      texts,
      device: 'wasm' as const,
      dtype: 'q8' as const,
    });
    expect(result.report.backend).toBe('wasm');
    expect(result.vectors).toHaveLength(node.vectors.length);
    let maxAbs = 0;
    result.vectors.forEach((v, i) => (maxAbs = Math.max(maxAbs, Math.abs(v - node.vectors[i]))));
    console.info(
      `minilm q8, Chromium WASM (${result.report.threads} threads) vs Node onnxruntime-web WASM over ${TEXTS} texts: max |Δ| ${maxAbs}`,
    );
    expect(maxAbs).toBe(0);
    expect(Float32Array.from(result.vectors)).toEqual(node.vectors);
  }, 600_000);

  it('the comparison on the page, q8 embedded in this browser, shows the CLI’s numbers', async () => {
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=bm25&device=wasm`);
    await page.click('[data-compare-toggle]');
    await page.check('[data-compare-choice="minilm:fp32"]');
    await page.check('[data-compare-choice="minilm:q8"]');
    await page.waitForSelector(`[data-phase="compared"][data-refs="${REFS}"]`, {
      timeout: 600_000,
    });
    const source = (await page.textContent('[data-compare-source]')) ?? '';
    expect(source).toContain('minilm:fp32');
    expect(source).not.toContain('minilm:q8');
    const ran = cli.comparison.retrievers.map((r) => `${r.ref}: ${r.runtime ?? '—'}`);
    expect(ran).toEqual([
      'bm25: —',
      'minilm:fp32: onnxruntime-node cpu',
      'minilm:q8: onnxruntime-web wasm',
    ]);
    const pairs = cli.comparison.pairs.filter((p) => p.group === null && p.metric === 'recall');
    expect(pairs.filter((p) => p.b === 'minilm:q8').length).toBeGreaterThan(0);
    for (const want of pairs) {
      const row = page.locator(
        `[data-pairs="${want.series}"] tr[data-pair="${want.a}|${want.b}"][data-metric="recall@${want.k}"]`,
      );
      const where = `${want.series} ${want.a} − ${want.b} @${want.k}`;
      expect(await row.locator('[data-field="b"]').textContent(), where).toBe(String(want.onlyA));
      expect(await row.locator('[data-field="c"]').textContent(), where).toBe(String(want.onlyB));
      expect(await row.locator('[data-field="p"]').textContent(), where).toBe(formatP(want.p));
      expect(await row.locator('[data-field="delta"]').textContent(), where).toBe(
        formatDelta(want),
      );
    }
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 900_000);
});
