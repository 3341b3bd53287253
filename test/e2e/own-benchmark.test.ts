// Your own benchmark: a 50-memory / 10-query JSONL loaded on Your data, declared a benchmark (a
// declaration that does not fit is refused, naming the row, with the table kept), run in
// Reproduce with BM25 and MiniLM, and found again after a reload, with the ranks the CLI prints
// (test/fixtures/userdata/own-benchmark.ranks.json, checked against the CLI by
// test/scripts/reproduce.test.ts and the commands test).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { recallCells, showView } from '../lib/protocols/page-helpers.ts';
import { seriousViolations } from './axe.ts';
import { useHarness } from './harness.ts';

const GOOD = path.join(repoRoot, 'test/fixtures/userdata');
const TABLE = 'user_own_benchmark';
const RANKS = JSON.parse(readFileSync(path.join(GOOD, 'own-benchmark.ranks.json'), 'utf8')) as {
  bm25: number[];
  minilm: number[];
};
// MiniLM embeds the 60 texts in WASM; a bound for a hung run, not a target.
const MINILM_MS = 300_000;

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  // One context, so IndexedDB outlives the reload.
  ({ page, watch } = await harness.tab({ viewport: { width: 1400, height: 1000 } }));
}, 600_000);

/** Each query's best target rank as the query table shows it, in file order (lines 51–60). */
async function shownRanks(): Promise<number[]> {
  const rows = await page.$$eval('[data-table="queries"] tbody tr', (trs) =>
    trs.map((tr) => ({
      id: tr.getAttribute('data-query-id') ?? '',
      rank: tr.querySelector('[data-field="rank"]')?.textContent?.trim() ?? '',
    })),
  );
  const byId = new Map(rows.map((r) => [r.id, Number(r.rank.split(' / ')[0])]));
  return Array.from({ length: 10 }, (_, i) => byId.get(`line ${51 + i}`) ?? NaN);
}

async function expectRun(ret: 'bm25' | 'minilm', timeout: number) {
  await showView(page, harness.site.url, { bench: TABLE, ret }, { device: 'wasm' }, timeout);
  expect(await shownRanks()).toEqual(RANKS[ret]);
  const recall = await recallCells(page);
  expect(recall.get('query')?.hits).toBe('mean of 10 queries (partial credit)');
  expect(recall.get('query|pets')).toBeDefined();
  await page.locator('[data-chart="reproduce-similarity"]').waitFor();
}

describe('your own benchmark, from Your data to Reproduce and back', () => {
  it('declares a loaded JSONL a benchmark, refusing first a declaration that does not fit', async () => {
    await page.goto(`${harness.site.url}#/mydata`);
    await page.waitForSelector('[data-table-count="inmind_tasks"]', { timeout: 180_000 });
    await page.locator('input[type="file"]').setInputFiles(path.join(GOOD, 'own-benchmark.jsonl'));
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector(`[data-load-notice]:has-text("60 rows")`);
    const form = page.locator(`[data-declaration="${TABLE}"]`);
    await form.locator('[data-part="memory.id"] option[value="fields.id"]').waitFor({
      state: 'attached',
    });
    await form.locator('[data-part="memory.id"]').selectOption('fields.session');
    await form.locator('[data-declare]').click();
    expect(await form.locator('[data-declare-error]').innerText()).toBe(
      `${TABLE} line 2: memory.id (fields.session): "s1" is also the id on line 1. Nothing was changed: ${TABLE} is as it was loaded.`,
    );
    await form.locator('[data-part="memory.id"]').selectOption('fields.id');
    await form.locator('[data-declare]').click();
    expect(await form.locator('[data-declare-notice]').innerText()).toBe(
      `${TABLE} is a benchmark: 50 memories and 10 queries. Kept in this browser with the table.`,
    );
    await form.locator('[data-declared]').waitFor();
    expect(await form.locator('[data-open-reproduce]').getAttribute('href')).toBe(
      `#/reproduce?bench=${TABLE}`,
    );
    expect(await seriousViolations(page, `[data-declaration="${TABLE}"]`)).toEqual([]);
  }, 300_000);

  it('runs BM25 and MiniLM on it in Reproduce with the CLI’s ranks', async () => {
    await expectRun('bm25', 120_000);
    const options = await page.locator('select').first().locator('option').allInnerTexts();
    expect(options).toContain(`${TABLE} (yours)`);
    // A declared table has no paper: BM25 is where it starts, nobody's "own choice".
    expect(await page.locator('[data-summary] [data-field="model"]').innerText()).toBe(
      'With: BM25 (rank_bm25 BM25Okapi), the first run on a declared table, which has no paper to follow.',
    );
    const retrievers = await page.locator('select').nth(1).locator('option').allInnerTexts();
    expect(retrievers).toContain('BM25');
    expect(retrievers.filter((r) => /paper|own/.test(r))).toEqual([]);
    expect(await seriousViolations(page, 'main')).toEqual([]);
    await expectRun('minilm', MINILM_MS);
    // The drill-down: "Which vet looks after Biscuit?" (line 59) finds its gold memory m44 first.
    await page.getByRole('button', { name: 'Which vet looks after Biscuit?' }).click();
    const detail = page.locator('[data-query-detail="line 59"]');
    expect(await detail.locator('[data-target="m44"] [data-field="target-rank"]').innerText()).toBe(
      '1',
    );
    // The map places the 50 memories and the 10 queries.
    const map = page.locator('[data-map-state="ready"]');
    await map.waitFor({ timeout: 120_000 });
    expect(await map.getAttribute('data-map-memories')).toBe('50');
  }, 600_000);

  it('finds the declaration and the results again after a reload', async () => {
    await page.reload();
    await page.waitForSelector(
      `[data-phase="done"][data-benchmark="${TABLE}"][data-retriever="minilm"]`,
      {
        timeout: MINILM_MS,
      },
    );
    expect(await shownRanks()).toEqual(RANKS.minilm);
    await page.goto(`${harness.site.url}#/mydata?table=${TABLE}`);
    await page
      .locator(`[data-declaration="${TABLE}"] [data-declared]`)
      .waitFor({ timeout: 60_000 });
  }, 600_000);

  it('says so when the URL names a benchmark this browser does not have', async () => {
    await page.locator(`[data-declaration="${TABLE}"] [data-undeclare]`).click();
    await page.locator('[data-declare-notice]', { hasText: 'a benchmark no more' }).waitFor();
    await page.goto(`${harness.site.url}#/reproduce?bench=${TABLE}`);
    await page
      .locator('[role="alert"]', { hasText: `${TABLE}: loaded, but not declared a benchmark` })
      .waitFor({ timeout: 60_000 });
    await page.goto(`${harness.site.url}#/reproduce?bench=user_gone`);
    await page
      .locator('[role="alert"]', { hasText: 'user_gone: no table of yours has this name' })
      .waitFor({ timeout: 60_000 });
    await page.goto(`${harness.site.url}#/reproduce?bench=%3Cb%3E`);
    await page.locator('[data-unknown-bench]').waitFor();
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
  }, 120_000);
});
