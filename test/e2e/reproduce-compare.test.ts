// Comparison mode on the Reproduce page: BM25, MiniLM fp32 and MiniLM q8 on InMind, picked in
// the page, served as a built site serves them, with its own vectors (`npm run vectors`): both
// MiniLM dtypes draw from their packs, so the paired numbers are the CLI's to the digit, the tie
// groups drawn as brackets, a disagreement opens both top-k lists, and a reload restores the
// whole view from the URL. Embedding in the browser inside the comparison is
// reproduce-compare-pack's (tiny-bert); MiniLM's browser parity, embed-real-parity's.
import { readFile } from 'node:fs/promises';
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
import { formatDelta, formatP, formatTies } from '../../src/lib/protocol-kit/compare-report.ts';
import { nodeRuntime } from '../../src/lib/embed/node-runtime.ts';
import { markLabels } from '../lib/protocols/page-helpers.ts';
import { resizedTo } from '../support/page-state.ts';
import type { SitePackEntry } from '../../src/lib/vectors/site-packs.ts';
import { useHarness } from './harness.ts';

const REFS = 'bm25,minilm:fp32,minilm:q8';
let page: Page;
let watch: PageWatch;
let cli: CompareRun;
let packs: SitePackEntry[];

beforeAll(async () => {
  const { catalog, close } = await openSiteCatalog(path.join(repoRoot, 'public'));
  try {
    const opts = parseArgs(['--benchmark', 'inmind', '--compare', REFS]);
    cli = await reproduceComparison(opts, opts.compare ?? [], catalog);
  } finally {
    await close();
  }
}, 900_000);

// Its hook runs after the CLI's: the packs come from the CLI's vector cache, embedding nothing
// again.
const harness = useHarness({
  site: { packs: { models: ['minilm'], protocols: ['inmind'], dtypes: ['fp32', 'q8'] } },
});

beforeAll(async () => {
  packs = harness.packs;
  ({ page, watch } = await harness.tab());
});

const done = `[data-phase="compared"][data-refs="${REFS}"]`;

/** The element's top edge lies in the viewport. */
function topInView(selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    return top >= 0 && top < window.innerHeight;
  });
}

describe('Reproduce comparison mode (InMind: BM25, MiniLM fp32, MiniLM q8)', () => {
  it('picks three retrievers and shows the CLI’s paired numbers and tie groups as brackets', async () => {
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=bm25&device=wasm`);
    await page.click('[data-compare-toggle]');
    await page.check('[data-compare-choice="minilm:fp32"]');
    await page.check('[data-compare-choice="minilm:q8"]');
    await page.waitForSelector(done, { timeout: 300_000 });
    expect(page.url()).toContain(`cmp=${encodeURIComponent(REFS)}`);
    expect(await page.textContent('[data-field="seed"]')).toBe(String(cli.comparison.seed));
    const source = (await page.textContent('[data-compare-source]')) ?? '';
    for (const pack of packs) {
      const ran = nodeRuntime(pack.dtype);
      expect(source).toContain(
        `minilm:${pack.dtype} (sha256 ${pack.sha256.slice(0, 12)}…, ${ran})`,
      );
    }
    expect(harness.site.requests.filter((p) => p.includes('/models/minilm/'))).toEqual([]);
    // Every pair, both MiniLM dtypes included: the vectors are the CLI's (fp32 on onnxruntime-node,
    // q8 on onnxruntime-web's WASM; test/e2e/q8-wasm-parity.test.ts embeds q8 in the page instead).
    for (const series of ['naive', 'indirect']) {
      for (const want of cli.comparison.pairs.filter(
        (p) => p.series === series && p.group === null && p.metric === 'recall',
      )) {
        const row = page.locator(
          `[data-pairs="${series}"] tr[data-pair="${want.a}|${want.b}"][data-metric="recall@${want.k}"]`,
        );
        expect(await row.locator('[data-field="b"]').textContent()).toBe(String(want?.onlyA));
        expect(await row.locator('[data-field="c"]').textContent()).toBe(String(want?.onlyB));
        expect(await row.locator('[data-field="p"]').textContent()).toBe(formatP(want?.p ?? null));
        expect(await row.locator('[data-field="delta"]').textContent()).toBe(
          formatDelta(want ?? { metric: 'recall', delta: null, lo: null, hi: null }),
        );
      }
    }
    // Tie groups as sets (each group's order is the chart's).
    const groups = (text: string) =>
      [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1].split(', ').sort().join(' '));
    const naiveTies = cli.comparison.ties.find((t) => t.series === 'naive' && t.group === null);
    const want = groups(naiveTies ? formatTies(naiveTies) : '');
    expect(want).toEqual(['minilm:fp32 minilm:q8', 'bm25']);
    expect(groups((await page.textContent('[data-ties="naive"] strong')) ?? '')).toEqual(want);
    const brackets = (await markLabels(page, 'compare-ties-naive', 'rule mark'))
      .filter((l) => l.startsWith('tie group'))
      .map((l) =>
        l
          .replace(/^tie group \d+: /, '')
          .split(', ')
          .sort()
          .join(' '),
      );
    expect(brackets).toEqual(want);
    // The brackets' numbers have a legend, and the density panels say each has its own scale.
    const legend = await page.locator('[data-tie-legend="naive"]').innerText();
    expect(legend).toMatch(/^Brackets, by number: 1 = .+ · 2 = .+\. One bracket joins/);
    expect(legend).toContain('2 = bm25');
    expect(await page.locator('[data-chart="compare-histograms"]').innerText()).toContain(
      'each panel its own density scale',
    );
    // The page's CSV export is the CLI's comparison.csv for the pairs both computed alike.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-export-compare]'),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const at5 = cli.comparison.pairs.find(
      (p) => p.series === 'naive' && p.group === null && p.k === 5 && p.b === 'minilm:fp32',
    );
    const row = csv
      .split('\n')
      .find((l) => l.startsWith('inmind,naive,series,,bm25,minilm:fp32,recall,5,'));
    expect(row).toContain(`,${at5?.onlyA},${at5?.onlyB},${at5?.p},`);
  }, 600_000);

  it('opens a disagreement with both top-k lists, and a reload restores it', async () => {
    const counts = await page.$$eval('[data-disagree] [data-field="count"]', (els) =>
      els.map((e) => Number(e.textContent)),
    );
    // naive, bm25 vs minilm:fp32 at k = 5: b = 1, c = 53 (docs/protocols.md).
    expect(counts).toEqual([1, 53]);
    await resizedTo(page, 1366, 768);
    // Deep in the 53-item list, so that a panel opened under the lists is off-screen.
    const first = page.locator('[data-disagree="b"] [data-disagree-query]').nth(40);
    const id = await first.getAttribute('data-disagree-query');
    await first.click();
    const both = page.locator(`[data-disagreement="${id}"]`);
    await both.waitFor();
    // At 1366 px the opened query stands beside the lists, in view.
    const list = await page.locator('[data-disagree="b"]').boundingBox();
    const panel = await both.boundingBox();
    expect(panel && list && panel.x >= list.x + list.width).toBe(true);
    expect(await topInView(`[data-disagreement="${id}"]`)).toBe(true);
    for (const side of ['bm25', 'minilm:fp32']) {
      expect(await both.locator(`[data-side="${side}"] [data-retrieved]`).count()).toBe(5);
      expect(await both.locator(`[data-side="${side}"] [data-target="target"]`).count()).toBe(1);
    }
    const url = page.url();
    expect(url).toContain(`cq=${encodeURIComponent(id ?? '')}`);
    // The packs again (from the HTTP cache): nothing is embedded.
    await page.reload();
    await page.waitForSelector(done, { timeout: 300_000 });
    await page.locator(`[data-disagreement="${id}"]`).waitFor();
    expect(page.url()).toBe(url);
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 600_000);

  it('scrolls a disagreement opened at 390 px into view, below the lists', async () => {
    await resizedTo(page, 390, 844);
    const other = page.locator('[data-disagree="b"] [data-disagree-query]').nth(45);
    const id = await other.getAttribute('data-disagree-query');
    await other.click();
    await page.locator(`[data-disagreement="${id}"]`).waitFor();
    await expect.poll(() => topInView(`[data-disagreement="${id}"]`)).toBe(true);
    await resizedTo(page, 1280, 720);
  });

  it('runs the single view in the dtype its link names (ret=minilm:q8), and names junk', async () => {
    const q8 = packs.find((p) => p.dtype === 'q8');
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=minilm:q8&device=wasm`);
    const shown = page.locator('[data-phase="done"][data-retriever="minilm"][data-dtype="q8"]');
    await shown.locator('[data-chart="reproduce-similarity"] .chart-canvas').waitFor();
    expect(await page.inputValue('select:has(option[value="minilm:q8"])')).toBe('minilm:q8');
    expect(await shown.locator('[data-chart="reproduce-similarity"]').innerText()).toContain(
      '· q8',
    );
    expect(await shown.innerText()).toContain(`q8, sha256 ${q8?.sha256.slice(0, 12)}`);
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=minilm:zz&device=wasm`);
    await page.locator('[data-phase="done"][data-retriever="bm25"]').waitFor();
    expect(await page.locator('[data-bad-retriever]').innerText()).toContain(
      'ret: "minilm:zz": dtype must be one of fp32, fp16, q8, q4',
    );
    expect(harness.site.requests.filter((p) => p.includes('/models/minilm/'))).toEqual([]);
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 60_000);
});
