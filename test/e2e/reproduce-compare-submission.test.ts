// An InMind submission loaded on Your data joins the Reproduce comparison, one retriever per
// system: ranked by the Target Recall proxy on the tasks it covers, paired with BM25 there (b and
// c equal the ones Node counts from BM25's ranks and the fixture's known ranks), named in the URL
// and the CSV, its recorded context opened beside BM25's top-k; a browser without the table says
// what to load again. Small on purpose: BM25 and the 4-task fixture.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { Catalog } from '../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../src/lib/db/node-engine.ts';
import { loadInMind } from '../../src/lib/loaders/core-loader.ts';
import { buildProtocol } from '../../src/lib/protocols/build.ts';
import { readReproduceParams } from '../../src/lib/protocols/params.ts';
import { bm25Retriever } from '../../src/lib/protocol-kit/bm25-retriever.ts';
import { evaluateProtocol } from '../../src/lib/protocol-kit/evaluate.ts';
import { SITE, siteFetch } from '../lib/data/site-fetch.ts';
import { loadFile, useHarness } from './harness.ts';

const TABLE = 'user_submission_ranked';
const SUB = `sub:${TABLE}:RankedRAG`;
const REFS = `bm25,${SUB}`;
/** The fixture's ranks for RankedRAG (test/lib/protocol-kit/submission-retriever.test.ts). */
const RANKS: Record<number, number | null> = { 0: 1, 3: 5, 4: 6, 5: null };
const NAIVE_RANKS: Record<number, number | null> = { 0: 1, 3: null, 4: null, 5: null };

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
/** BM25's hit@5 on the fixture's tasks, per series, counted in Node. */
let bm25Hits: Map<number, boolean>;
let bm25NaiveHits: Map<number, boolean>;

beforeAll(async () => {
  const catalog = new Catalog(await openNodeEngine());
  try {
    await loadInMind(catalog, { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() });
    const protocol = await buildProtocol(readReproduceParams({ bench: 'inmind' }).spec, catalog);
    const evaluation = await evaluateProtocol(protocol, bm25Retriever());
    const hits = (series: string) =>
      new Map(
        Object.keys(RANKS).map((t) => {
          const o = evaluation.outcomes.find((x) => x.query.id === `${t}:${series}`);
          return [Number(t), (o?.targetRank ?? Infinity) <= 5] as const;
        }),
      );
    bm25Hits = hits('indirect');
    bm25NaiveHits = hits('naive');
  } finally {
    await catalog.engine.close();
  }
  ({ page, watch } = await harness.open('#/mydata', { viewport: { width: 1400, height: 1000 } }));
  const file = path.join(repoRoot, 'test/fixtures/userdata/submission-ranked.jsonl');
  await loadFile(page, file, TABLE);
}, 900_000);

const pairCell = (series: string, metric: string, field: string) =>
  page.textContent(
    `[data-pairs="${series}"] tr[data-pair="bm25|${SUB}"][data-metric="${metric}"] [data-field="${field}"]`,
  );

describe('an InMind submission in the Reproduce comparison', () => {
  it('joins as a proxy retriever on the tasks it covers, paired with BM25', async () => {
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=bm25&cmp=bm25`);
    const choice = page.locator(`[data-compare-choice="${SUB}"]`);
    await choice.waitFor({ timeout: 180_000 });
    await choice.check();
    await page.waitForSelector(`[data-phase="compared"][data-refs="${REFS}"]`, {
      timeout: 180_000,
    });
    expect(page.url()).toContain(`cmp=${encodeURIComponent(REFS)}`);
    expect(await page.textContent(`[data-retriever-note="${SUB}"]`)).toMatch(
      /covers 4 of 125 tasks \(naive from naive\.context; indirect from query\.context\), so every retriever is paired on 8 queries; .*proxy.*no AUC: a submission records contexts, not scores/,
    );
    const row = `[data-compare-table="indirect"] tr[data-retriever="${SUB}"]`;
    expect(await page.textContent(`${row} [data-metric="recall@5"]`)).toMatch(/^50\.0% \[/);
    expect(await page.textContent(`${row} [data-metric="auc"]`)).toBe('—');
    const b = [...bm25Hits].filter(([t, hit]) => hit && !((RANKS[t] ?? 99) <= 5)).length;
    const c = [...bm25Hits].filter(([t, hit]) => !hit && (RANKS[t] ?? 99) <= 5).length;
    expect(await pairCell('indirect', 'recall@5', 'b')).toBe(String(b));
    expect(await pairCell('indirect', 'recall@5', 'c')).toBe(String(c));
    expect(await pairCell('indirect', 'AUC', 'delta')).toBe('— [—, —]');
  }, 400_000);

  it('exports the reference and its digest, and opens its recorded context', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-export-compare]'),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const line = csv.split('\n').find((l) => l.startsWith(`inmind,indirect,series,,bm25,${SUB},`));
    expect(line).toMatch(/,proxy:sha256:[0-9a-f]{64},,"covers 4 of 125 tasks .*no AUC/);
    // Naive, BM25 − the submission: BM25 hits at 5 where the system's naive context lacks the target.
    const onlyBm25 = [...bm25NaiveHits].filter(([t, hit]) => hit && !((NAIVE_RANKS[t] ?? 99) <= 5));
    expect(onlyBm25.length).toBeGreaterThan(0);
    await page.selectOption('[data-compare-series]', 'naive');
    expect(await page.textContent('[data-disagree="a"] [data-field="count"]')).toBe(
      String(onlyBm25.length),
    );
    const id = `${onlyBm25[0][0]}:naive`;
    await page.click(`[data-disagree="a"] [data-disagree-query="${id}"]`);
    await page.waitForSelector(`[data-side="${SUB}"] [data-recorded-context="${id}"]`);
    expect(await page.textContent(`[data-side="${SUB}"] [data-field="proxy-rank"]`)).toBe(
      'nowhere',
    );
    expect(await page.locator('[data-side="bm25"] [data-query-detail]').count()).toBe(1);
    expect(page.url()).toContain(`cq=${encodeURIComponent(id)}`);
  }, 120_000);

  it('comes back after a reload, and a browser without the table says what to load', async () => {
    await page.reload();
    await page.waitForSelector(`[data-phase="compared"][data-refs="${REFS}"]`, {
      timeout: 180_000,
    });
    const { page: fresh, watch: freshWatch } = await harness.tab();
    await fresh.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=bm25&cmp=${REFS}`);
    await fresh.waitForSelector('[data-compare-error]', { timeout: 180_000 });
    expect(await fresh.textContent('[data-compare-error]')).toContain(
      `${SUB}: no table ${TABLE} is loaded here. Load the InMind submission file that made ${TABLE} again on Your data`,
    );
    expect(freshWatch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    await fresh.close();
  }, 400_000);
});
