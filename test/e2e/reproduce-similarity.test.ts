import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import type { Catalog } from '../../src/lib/db/catalog.ts';
import { openSiteCatalog, parseArgs, reproduce } from '../../scripts/reproduce.ts';
import { formatScore } from '../../src/lib/protocol-kit/report.ts';
import { markLabels, separationCells, showView } from '../lib/protocols/page-helpers.ts';
import { useHarness } from './harness.ts';

const CASES = [
  { bench: 'inmind', ret: 'bm25', series: ['naive', 'indirect'] },
  { bench: 'locomo', ret: 'bm25', series: ['question'] },
  { bench: 'inmind', ret: 'tiny-bert', series: ['naive', 'indirect'] },
  { bench: 'locomo', ret: 'tiny-bert', series: ['question'] },
] as const;

/** onnxruntime-web (page) and onnxruntime-node (CLI) agree to ~1e-6, not to the last bit. */
const DENSE_AUC_TOLERANCE = 0.002;

const harness = useHarness({ site: 'plain' });
let page: Page;
let watch: PageWatch;
let catalog: Catalog;
let closeCatalog: () => Promise<void>;

beforeAll(async () => {
  ({ catalog, close: closeCatalog } = await openSiteCatalog(path.join(repoRoot, 'public')));
  ({ page, watch } = await harness.tab());
});

afterAll(async () => {
  await closeCatalog?.();
});

describe('Reproduce page: target vs background similarity (Figure 4)', () => {
  it.each(CASES)('draws $bench with $ret and its AUCs match the CLI', async (c) => {
    const dense = c.ret !== 'bm25';
    await showView(
      page,
      harness.site.url,
      { bench: c.bench, ret: c.ret },
      dense ? { device: 'wasm' } : {},
    );
    const labels = await markLabels(page, 'reproduce-similarity', 'bar');
    for (const series of c.series) {
      for (const population of ['target', 'background']) {
        const bars = labels.filter((l) => l.startsWith(`${series} | ${population} | `));
        expect(bars.length, `${series} ${population} bars`).toBeGreaterThan(0);
      }
    }
    const shown = await separationCells(page);
    const args = ['--benchmark', c.bench, '--retriever', dense ? 'dense' : 'bm25'];
    const cli = await reproduce(parseArgs(dense ? [...args, '--model', c.ret] : args), catalog);
    for (const row of cli.figures.separation) {
      const page = shown.get(row.series);
      console.log(
        `${c.bench} ${c.ret} ${row.series}: AUC page ${page?.auc} CLI ${formatScore(row.stats.auc)}; ` +
          `KS page ${page?.ks} CLI ${formatScore(row.stats.ks)}`,
      );
      if (dense) {
        expect(Math.abs(Number(page?.auc) - (row.stats.auc ?? NaN))).toBeLessThanOrEqual(
          DENSE_AUC_TOLERANCE,
        );
      } else {
        expect(page).toEqual({ auc: formatScore(row.stats.auc), ks: formatScore(row.stats.ks) });
      }
    }
  });

  it("reads InMind's Figure 4 against the paper's four panels, with what differs", async () => {
    await showView(page, harness.site.url, { bench: 'inmind-figure4', ret: 'bm25' });
    const table = page.locator('[data-table="figure4"]');
    await table.waitFor({ timeout: 60_000 });
    expect(
      await table.locator('tbody tr').evaluateAll((trs) => trs.map((t) => t.dataset.panel)),
    ).toEqual(['inmind', 'locomo', 'locomo-plus', 'lme-s']);
    // The InMind panel is this page's run: the same AUC as the separation table above it.
    const shown = await separationCells(page);
    const inmind = table.locator('tr[data-panel="inmind"]');
    expect(await inmind.locator('[data-field="auc"]').innerText()).toBe(shown.get('indirect')?.auc);
    expect(await inmind.innerText()).toContain('(line 89)');
    // LoCoMo's from the published CLI run, with a link that draws it.
    const locomo = table.locator('tr[data-panel="locomo"]');
    expect(Number(await locomo.locator('[data-field="auc"]').innerText())).toBeGreaterThan(0.5);
    expect(await locomo.innerText()).toContain(
      'npm run reproduce -- --benchmark locomo --retriever bm25',
    );
    expect(await locomo.getByRole('link', { name: 'draw this panel' }).getAttribute('href')).toBe(
      '#/reproduce?bench=locomo&ret=bm25',
    );
    expect(await table.locator('tr[data-panel="lme-s"] [data-field="absent"]').innerText()).toMatch(
      /^not drawn here/,
    );
    expect(await page.locator('[data-figure4] [data-field="differs"]').innerText()).toMatch(
      /BGE-small-en-v1\.5 .* ours are BM25 scores/,
    );
  });

  it('recomputes every InMind figure from cached vectors on returning to it', async () => {
    // Any embedding shows its progress line ("Embedding N / M texts"): record whether one appears.
    await page.evaluate(() => {
      const seen = { embedding: false };
      Object.assign(window, { __memlensSeen: seen });
      new MutationObserver(() => {
        if (/Embedding \d+ \/ \d+ texts/.test(document.body.innerText)) seen.embedding = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await showView(
      page,
      harness.site.url,
      { bench: 'inmind', ret: 'tiny-bert' },
      { device: 'wasm' },
    );
    const ms = async (field: string) =>
      Number(await page.locator(`[data-field="${field}"]`).innerText());
    const [score, figures, embedding] = [
      await ms('score-ms'),
      await ms('figures-ms'),
      await ms('prepare-ms'),
    ];
    console.log(
      `InMind tiny-bert from cached vectors in the page: scoring ${score} ms + figures ${figures} ms ` +
        `= ${score + figures} ms (embedding step ${embedding} ms)`,
    );
    expect(
      await page.evaluate(() => Reflect.get(Reflect.get(window, '__memlensSeen'), 'embedding')),
    ).toBe(false);
    // The result line names the backend that computed the vectors.
    // ... and the probe that backend passed (data/probes.json).
    expect(await page.locator('[data-field="timings"] [data-field="backend"]').innerText()).toMatch(
      /^WASM · probe: 24 texts, worst cosine .+ ≥ 0\.9999 vs /,
    );
  });

  it('made no request outside the test server and logged no console error', () => {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
