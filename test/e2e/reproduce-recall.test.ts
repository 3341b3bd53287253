import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { seriousViolations } from './axe.ts';
import { openSiteCatalog, parseArgs, reproduce, type CliRun } from '../../scripts/reproduce.ts';
import { formatHits, formatPercent } from '../../src/lib/protocol-kit/report.ts';
import { recallTable } from '../../src/lib/protocol-kit/summary.ts';
import { recallCells, showView } from '../lib/protocols/page-helpers.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
let cli: CliRun;
let cliConv: CliRun;

beforeAll(async () => {
  const { catalog, close } = await openSiteCatalog(path.join(repoRoot, 'public'));
  try {
    cli = await reproduce(parseArgs(['--benchmark', 'inmind', '--retriever', 'bm25']), catalog);
    cliConv = await reproduce(
      parseArgs(['--benchmark', 'locomo-conv', '--retriever', 'bm25']),
      catalog,
    );
  } finally {
    await close();
  }
  ({ page, watch } = await harness.tab());
});

describe('Reproduce page: InMind Naive RAG with BM25, against the CLI', () => {
  it.each([1, 5, 10])('shows the CLI recall@%i in every series and domain', async (k) => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25', k });
    const shown = await recallCells(page);
    const expected = recallTable(cli.evaluation, k);
    expect(shown.size).toBe(expected.length);
    for (const c of expected) {
      const key = c.group === null ? c.series : `${c.series}|${c.group}`;
      expect(shown.get(key), key).toEqual({
        recall: formatPercent(c.recall),
        hits: formatHits(c),
      });
    }
    const line = (series: string) =>
      cli.lines.find((l) => l.startsWith(`recall@${k}  ${series} `))?.trim();
    console.log(
      `recall@${k}: page naive ${shown.get('naive')?.recall} indirect ` +
        `${shown.get('indirect')?.recall}; CLI "${line('naive')}" / "${line('indirect')}"`,
    );
  });

  it('sets the paper BM25 rows beside ours at k = 5 as proxies, without a difference', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25', k: 5 });
    const rows = await page.$$eval(
      '[data-table="paper"] tbody tr[data-same-retriever="true"]',
      (trs) =>
        trs.map((tr) =>
          ['paper', 'ours', 'comparability', 'difference'].map(
            (f) => tr.querySelector(`[data-field="${f}"]`)?.textContent?.trim() ?? '',
          ),
        ),
    );
    expect(rows).toEqual([
      ['53.6', '53.6 [44.9, 62.1]', 'proxy', '—'],
      ['3.2paper: ±4–5 pts binomial CI (§4.5)', '0.8 [0.1, 4.4]', 'proxy', '—'],
    ]);
    const target = page.locator(
      '[data-table="paper"] tr[data-system="BM25"][data-column="target_recall"]',
    );
    expect(await target.getAttribute('data-comparability')).toBe('proxy');
    expect(await target.locator('[data-field="differs"]').innerText()).toContain(
      'GPT-5-mini judging whether the top-5 context states the decisive fact',
    );

    // Saved as a table of paper_vs_ours's shape, it joins the published rows on their keys.
    await page.getByRole('button', { name: 'Save as a table' }).click();
    const saved = page.locator('[data-save-run="saved"]');
    await saved.waitFor({ timeout: 60_000 });
    expect(await saved.locator('code').first().innerText()).toBe('run_inmind_bm25_k5');
    await saved.getByRole('link', { name: 'open it in the SQL console' }).click();
    await page.waitForSelector('[data-result-grid]', { timeout: 60_000 });
    expect(await page.locator('[data-result-grid] tbody tr').count()).toBe(2);
    const joined = `SELECT r.scope, r.paper_value, r.ours_value AS browser, v.ours_value AS published
FROM run_inmind_bm25_k5 r JOIN paper_vs_ours v
  USING (benchmark, system, metric, k, scope, paper_table, paper_row, paper_column)
ORDER BY r.scope`;
    await page.goto(`${harness.site.url}#/console?run=1&sql=${encodeURIComponent(joined)}`);
    await page.waitForSelector('[data-result-grid] thead:has-text("published")', {
      timeout: 60_000,
    });
    const grid = page.locator('[data-result-grid] tbody');
    expect(await grid.locator('tr').count()).toBe(2);
    // The grid's first cell is the row number.
    const cells = await grid
      .locator('tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.children].slice(1).map((td) => td.textContent?.trim())),
      );
    // BM25 is exact arithmetic: the browser's run equals the published CLI number.
    expect(cells.map((c) => c.slice(0, 2))).toEqual([
      ['indirect', '3.2'],
      ['naive', '53.6'],
    ]);
    for (const c of cells) expect(Number(c[2])).toBeCloseTo(Number(c[3]), 6);
  });

  it('drills into the best-ranked indirect query and shows retrieved memories as text', async () => {
    await showView(
      page,
      harness.site.url,
      { bench: 'inmind', ret: 'bm25', k: 5 },
      { series: 'indirect' },
    );
    const first = page.locator('[data-table="queries"] tbody tr').first();
    const id = await first.getAttribute('data-query-id');
    await first.getByRole('button').click();
    await page.waitForSelector(`[data-query-detail="${id}"]`);
    expect(page.url()).toContain(`q=${encodeURIComponent(id ?? '')}`);

    const outcome = cli.evaluation.outcomes.find((o) => o.query.id === id);
    const corpus = outcome && cli.protocol.corpora.get(outcome.query.corpusId);
    if (!outcome || !corpus) throw new Error(`no CLI outcome for ${id}`);
    const detail = page.locator(`[data-query-detail="${id}"]`);
    expect(await detail.locator('[data-field="target-rank"]').innerText()).toBe(
      String(outcome.targetRank),
    );
    const retrieved = detail.locator('li[data-retrieved] pre');
    expect(await retrieved.count()).toBe(5);
    // Text, not markup: the element holds exactly the document's characters and no elements.
    const [text, children] = await retrieved
      .first()
      .evaluate((el) => [el.textContent, el.childElementCount] as const);
    expect(text).toBe(corpus.docs[outcome.top[0].index]);
    expect(children).toBe(0);

    // The state survives a reload: the URL alone restores view and drill-down.
    await page.reload();
    await page.waitForSelector(`[data-query-detail="${id}"]`, { timeout: 120_000 });
  });

  it('shows the CLI LoCoMo-Conv recall@10 for every style the site serves', async () => {
    await showView(page, harness.site.url, { bench: 'locomo-conv', ret: 'bm25', k: 10 });
    const shown = await recallCells(page);
    const expected = recallTable(cliConv.evaluation, 10);
    expect([...new Set(expected.map((c) => c.series))]).toEqual([
      'question',
      'composed',
      'dialog',
      'implicit',
      'counterfactual',
    ]);
    expect(shown.size).toBe(expected.length);
    for (const c of expected) {
      const key = c.group === null ? c.series : `${c.series}|${c.group}`;
      expect(shown.get(key), key).toEqual({
        recall: formatPercent(c.recall),
        hits: formatHits(c),
      });
    }
  });

  it('has no serious or critical axe violations with a query open', async () => {
    await showView(
      page,
      harness.site.url,
      { bench: 'inmind', ret: 'bm25', k: 5 },
      { q: '0:indirect' },
    );
    await page.waitForSelector('[data-query-detail="0:indirect"]');
    expect(await seriousViolations(page, 'main')).toEqual([]);
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
