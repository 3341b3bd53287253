import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { parseResultsCsv } from '../../src/lib/results/results-csv.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;

const table1Csv = parseResultsCsv(
  readFileSync(path.join(repoRoot, 'data/results/inmind.csv'), 'utf8'),
  'inmind.csv',
).filter(
  (r) => r.table === 'Table 1' && ['naive', 'target_recall', 'application'].includes(r.metric),
);

/** Data marks only: Vega-Lite puts each mark's `description` encoding into its aria-label. */
async function markLabels(chart: string, kinds = ['bar', 'rule mark']): Promise<string[]> {
  const selector = kinds
    .map((k) => `[data-chart="${chart}"] .chart-canvas [aria-roledescription="${k}"][aria-label]`)
    .join(', ');
  await page.waitForSelector(selector);
  return page.$$eval(selector, (els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

beforeAll(async () => {
  ({ page, watch } = await harness.open('#/inmind'));
  await page.waitForSelector('[data-chart="inmind-table1"] .chart-canvas[data-rendered="true"]', {
    timeout: 120_000,
  });
});

describe('InMind walking skeleton in Chromium under /memlens/', () => {
  it('draws every Table 1 system and metric with the CSV values', async () => {
    const labels = await markLabels('inmind-table1');
    const bars = labels.filter((l) => !l.startsWith('Backbone in context'));
    const bySystemMetric = new Map(
      bars.map((l) => {
        const [label, metric, value] = l.split(' | ');
        return [`${label}|${metric}`, value];
      }),
    );
    const nonBackbone = table1Csv.filter((r) => r.system !== 'Backbone');
    expect(bars).toHaveLength(nonBackbone.length);
    for (const r of nonBackbone) {
      const label = r.note.includes('group: Naive RAG') ? r.row : `${r.system} (${r.variant})`;
      expect(bySystemMetric.get(`${label}|${r.column}`), `${label} ${r.column}`).toBe(r.valueText);
    }
    const backbone = labels.find((l) => l.startsWith('Backbone in context'));
    expect(backbone).toBe('Backbone in context | Application | 84.0');
  });

  it('filters memory systems by embedding and keeps the choice in the URL', async () => {
    await page.getByLabel('MiniLM', { exact: true }).check();
    await page.waitForFunction(() => location.hash.includes('emb=MiniLM'));
    await page.waitForFunction(() => {
      const els = document.querySelectorAll(
        '[data-chart="inmind-table1"] [aria-roledescription="bar"]',
      );
      return Array.from(els).every(
        (e) => !(e.getAttribute('aria-label') ?? '').includes('(text-embedding-3-large)'),
      );
    });
    const labels = await markLabels('inmind-table1');
    expect(labels.some((l) => l.startsWith('A-RAG (MiniLM) | Naive | 97.6'))).toBe(true);
    expect(labels.some((l) => l.includes('(text-embedding-3-large)'))).toBe(false);
    await page.getByLabel('Both', { exact: true }).check();
  });

  it('counts ten domains by SQL summing to 125', async () => {
    const labels = await markLabels('inmind-domains');
    expect(labels).toHaveLength(10);
    const total = labels.reduce((s, l) => s + Number(l.split(' | ')[1]), 0);
    expect(total).toBe(125);
  });

  it('finds the macaron task and opens its card with the indirect query', async () => {
    await page.getByLabel('Search tasks').fill('macaron');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
    await page.locator('tr[data-task-id]').first().click();
    const card = page.locator('[data-task-card]');
    await card.waitFor();
    const indirect = await card.locator('.indirect-query').innerText();
    expect(indirect.toLowerCase()).toContain('macaron');
    expect(page.url()).toMatch(/task=\d+/);
  });

  it('loads every benchmark without an error, requests nothing outside the server, logs no error', async () => {
    await page.waitForSelector('.loading', { state: 'detached', timeout: 120_000 });
    expect(await page.locator('[role="alert"]').allInnerTexts()).toEqual([]);
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
