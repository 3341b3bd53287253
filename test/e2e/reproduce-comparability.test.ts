import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import {
  openSiteCatalog,
  parseArgs,
  reproduceRelease,
  type ReleaseRun,
} from '../../scripts/reproduce.ts';
import { markLabels, showView } from '../lib/protocols/page-helpers.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
let cliRelease: ReleaseRun;

beforeAll(async () => {
  const { catalog, close } = await openSiteCatalog(path.join(repoRoot, 'public'));
  try {
    cliRelease = await reproduceRelease(
      parseArgs(['--benchmark', 'locomo-plus', '--model', 'tiny-bert']),
      catalog,
    );
  } finally {
    await close();
  }
  ({ page, watch } = await harness.tab());
});

/** Document order: true when `a` comes before `b`. */
async function before(a: string, b: string): Promise<boolean> {
  return page.evaluate(
    ([sa, sb]) => {
      const ea = document.querySelector(sa);
      const eb = document.querySelector(sb);
      if (!ea || !eb) throw new Error(`missing ${ea ? sb : sa}`);
      return (ea.compareDocumentPosition(eb) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    },
    [a, b],
  );
}

describe('Reproduce page says only what is comparable', () => {
  it('opens on a plain summary above the figures', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25', k: 5 });
    const summary = page.locator('[data-summary]');
    expect(await summary.locator('[data-field="model"]').innerText()).toContain(
      "BM25 (rank_bm25 BM25Okapi), the paper's choice",
    );
    expect(await before('[data-summary]', '[data-chart="reproduce-similarity"]')).toBe(true);
    // One line per paper number, ours first: BM25's naive 53.6 equals the paper's, and the line
    // says why it is still a proxy.
    const lines = summary.locator('[data-paper-lines] > li');
    expect(await lines.count()).toBe(6);
    const bm25 = lines.first();
    expect(await bm25.getAttribute('data-paper-line-row')).toBe('BM25 · Naive');
    expect(await bm25.locator('[data-field="paper"]').innerText()).toBe('53.6%');
    expect(await bm25.locator('[data-field="ours"]').innerText()).toBe('53.6%');
    expect(await bm25.locator('[data-field="comparability"]').innerText()).toBe('proxy');
    expect(await bm25.locator('[data-field="reason"]').innerText()).toMatch(
      /^Equal, but still a proxy: the paper's Naive is GPT-5-mini judging/,
    );
    expect(await lines.nth(2).getAttribute('data-same-retriever')).toBe('false');
    expect(await lines.nth(2).locator('[data-field="ours"]').innerText()).toBe('—');
    // The details sit behind a <details>, closed.
    const details = summary.locator('details[data-summary-details]');
    expect(await details.getAttribute('open')).toBeNull();
    await details.locator('summary').click();
    expect(await details.locator('[data-line-details="BM25 · Naive"]').innerText()).toContain(
      'line ',
    );
    expect(await seriousViolations(page, '[data-summary]')).toEqual([]);
  });

  it('shows LoCoMo-Conv’s excerpt scope above every figure and table', async () => {
    await showView(page, harness.site.url, { bench: 'locomo-conv', ret: 'bm25', k: 10 });
    const scope = page.locator('[data-scope]');
    const text = await scope.innerText();
    console.log(`LoCoMo-Conv scope: ${text.replace(/\s+/g, ' ')}`);
    expect(text).toContain("1 conversation (conv-26) of the paper's 10");
    expect(text).toContain("300 of the paper's 1,069 composed clusters");
    for (const later of [
      '[data-chart="reproduce-similarity"]',
      '[data-chart="reproduce-recall"]',
      '[data-table="separation"]',
      '[data-table="recall"]',
      '[data-table="paper"]',
      '[data-table="queries"]',
    ]) {
      expect(await before('[data-scope]', later), later).toBe(true);
    }
    const rows = await page.$$eval('[data-table="paper"] tbody tr', (trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-comparability'),
        tr.querySelector('[data-field="difference"]')?.textContent?.trim(),
      ]),
    );
    expect(rows).toEqual(Array(4).fill(['other scope', '—']));
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('draws a 95% band under each recall curve', async () => {
    await showView(page, harness.site.url, { bench: 'locomo', ret: 'bm25', k: 10 });
    const selector = '[data-chart="reproduce-recall"] .chart-canvas g.mark-area path';
    await page.waitForSelector(selector, { state: 'attached', timeout: 60_000 });
    const paths = await page.$$eval(selector, (els) => els.map((e) => e.getAttribute('d') ?? ''));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((d) => d.length > 20)).toBe(true);
    const interval = await page
      .locator('[data-table="recall"] tr[data-whole-series] [data-field="interval"]')
      .first()
      .innerText();
    expect(interval).toMatch(/^\[\d+\.\d, \d+\.\d\]$/);
    expect(
      await page.locator('[data-table="recall"] [data-field="hits"]').first().innerText(),
    ).toBe('mean of 1,982 queries (partial credit)');
    const groups = await page.$$eval('[data-table="recall"] tbody tr', (trs) =>
      trs.map((tr) => tr.getAttribute('data-group')),
    );
    expect(groups).toContain('category 4 · single-hop');
  });

  it('says at once that the paper’s BGE-small is not on this site, and offers what is', async () => {
    const t0 = Date.now();
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind-figure4`);
    const note = page.locator('[data-phase="unavailable"]');
    await note.waitFor({ timeout: 30_000 });
    console.log(`"not on this site" shown ${Date.now() - t0} ms after navigation`);
    expect(await note.getAttribute('data-missing')).toBe('bge-small');
    expect(await note.innerText()).toContain('bge-small-en-v1.5 is not on this site');
    expect(await note.getByRole('button', { name: 'Use tiny-bert' }).count()).toBe(1);
    const option = await page.locator('select >> option[value="bge-small"]').first().innerText();
    expect(option).toBe('bge-small-en-v1.5 (paper) — not on this site');
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('recomputes LoCoMo-Plus release scores with the model picked, as the CLI does', async () => {
    await page.goto(
      `${harness.site.url}#/reproduce?bench=locomo-plus&mode=release&ret=tiny-bert&device=wasm`,
    );
    await page.waitForSelector('[data-phase="done"][data-mode="release"]', { timeout: 280_000 });
    const release = page.locator('[data-release]');
    expect(await release.getAttribute('data-comparability')).toBe('other scope');
    const max = await release.locator('[data-field="max-deviation"]').innerText();
    const cli = cliRelease.release.maxAbsDeviation ?? NaN;
    console.log(`release mode, tiny-bert: page max |dev| ${max}, CLI ${cli.toExponential(2)}`);
    expect(Math.abs(Number(max) - cli)).toBeLessThan(2e-3);
    expect(await release.locator('[data-field="bm25-note"]').innerText()).toContain('up to 3101');
    expect(await release.locator('[data-table="release"] tbody tr').count()).toBe(25);
    const points = await markLabels(page, 'reproduce-release', 'point');
    expect(points).toHaveLength(401);
    expect(points[0]).toMatch(/^lp-0 \| causal \| released 0\.5712 \| recomputed /);
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
