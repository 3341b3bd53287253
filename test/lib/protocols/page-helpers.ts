// Shared by test/e2e/reproduce-*.test.ts: reading the Reproduce page's numbers.
import type { Page } from 'playwright-core';

export interface ViewKey {
  bench: string;
  ret: string;
  k?: number;
}

/** Opens (or switches) the Reproduce page and waits until that view's numbers are shown. */
export async function showView(
  page: Page,
  baseUrl: string,
  view: ViewKey,
  extra: Record<string, string> = {},
  timeout = 280_000,
): Promise<void> {
  const params = new URLSearchParams({ bench: view.bench, ret: view.ret, ...extra });
  if (view.k !== undefined) params.set('k', String(view.k));
  await page.goto(`${baseUrl}#/reproduce?${params.toString()}`);
  const k = view.k === undefined ? '' : `[data-k="${view.k}"]`;
  await page.waitForSelector(
    `[data-phase="done"][data-benchmark="${view.bench}"][data-retriever="${view.ret}"]${k}`,
    { timeout },
  );
}

export interface CellText {
  recall: string;
  hits: string;
}

/** `series` (the whole series' row) or `series|group` → the recall table's two cells, as displayed. */
export async function recallCells(page: Page): Promise<Map<string, CellText>> {
  const rows = await page.$$eval('[data-table="recall"] tbody tr', (trs) =>
    trs.map((tr) => ({
      key: tr.hasAttribute('data-whole-series')
        ? (tr.getAttribute('data-series') ?? '')
        : `${tr.getAttribute('data-series')}|${tr.getAttribute('data-group')}`,
      recall: tr.querySelector('[data-field="recall"]')?.textContent?.trim() ?? '',
      hits: tr.querySelector('[data-field="hits"]')?.textContent?.trim() ?? '',
    })),
  );
  return new Map(rows.map((r) => [r.key, { recall: r.recall, hits: r.hits }]));
}

/** series → AUC and KS as displayed. */
export async function separationCells(
  page: Page,
): Promise<Map<string, { auc: string; ks: string }>> {
  const rows = await page.$$eval('[data-table="separation"] tbody tr', (trs) =>
    trs.map((tr) => ({
      series: tr.getAttribute('data-series') ?? '',
      auc: tr.querySelector('[data-field="auc"]')?.textContent?.trim() ?? '',
      ks: tr.querySelector('[data-field="ks"]')?.textContent?.trim() ?? '',
    })),
  );
  return new Map(rows.map((r) => [r.series, { auc: r.auc, ks: r.ks }]));
}

/** aria-labels of a chart's data marks (Vega-Lite writes the `description` encoding there). */
export async function markLabels(page: Page, chart: string, role: string): Promise<string[]> {
  const selector = `[data-chart="${chart}"] .chart-canvas [aria-roledescription="${role}"][aria-label]`;
  await page.waitForSelector(selector, { state: 'attached', timeout: 60_000 });
  return page.$$eval(selector, (els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}
