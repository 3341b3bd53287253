// A researcher's citations: a Cite button per paper and for MemLens's reproduced rows (BibTeX to
// copy or download), and every "line N" of the paper linked to the paper's arXiv page.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { paperBibtex } from '../../src/lib/benchmarks/bibtex.ts';
import { PAPER_REFS } from '../../src/lib/benchmarks/paper-refs.ts';
import { showView } from '../lib/protocols/page-helpers.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;

beforeAll(async () => {
  ({ page } = await harness.tab({
    viewport: { width: 1400, height: 1000 },
    permissions: ['clipboard-read', 'clipboard-write'],
  }));
}, 600_000);

describe('citing a paper and MemLens', () => {
  it('gives a paper page its BibTeX to copy and download, and links its lines to arXiv', async () => {
    await page.goto(`${harness.site.url}#/locomo-conv`);
    const cite = page.locator('[data-cite="locomo-conv.bib"]');
    await cite.locator('[data-cite-toggle]').click();
    const expected = paperBibtex(PAPER_REFS['locomo-conv']);
    expect(await cite.locator('[data-bibtex]').textContent()).toBe(expected);
    await cite.locator('[data-cite-copy]').click();
    await cite.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      cite.locator('[data-cite-download]').click(),
    ]);
    expect(download.suggestedFilename()).toBe('locomo-conv.bib');
    expect(readFileSync(await download.path(), 'utf8')).toBe(expected);
    const source = page.locator('figure[data-chart] a[data-paper-source]').first();
    await source.waitFor({ timeout: 120_000 });
    expect(await source.getAttribute('href')).toBe('https://arxiv.org/abs/2609.03467');
    expect(await source.innerText()).toMatch(/locomo-conv\.txt lines? \d+/);
  }, 300_000);

  it('gives every paper of the Overview its Cite button, with that paper’s BibTeX', async () => {
    await page.goto(`${harness.site.url}#/home`);
    const list = page.locator('ul.paper-links');
    for (const id of ['inmind', 'locomo-conv', 'memuse', 'utilmem']) {
      const cite = list.locator(`[data-cite="${id}.bib"]`);
      await cite.locator('[data-cite-toggle]').click({ timeout: 60_000 });
      expect(await cite.locator('[data-bibtex]').textContent()).toBe(paperBibtex(PAPER_REFS[id]));
      await cite.locator('[data-cite-toggle]').click();
    }
    expect(await list.locator('li').count()).toBe(4);
    expect(await list.locator('[data-cite-toggle]').count()).toBe(4);
  }, 300_000);

  it('cites MemLens’s reproduced rows with the view’s URL, beside the paper’s rows', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25', k: 5 });
    const rows = page.locator('[data-cite="memlens.bib"]');
    await rows.locator('[data-cite-toggle]').click();
    const bib = (await rows.locator('[data-bibtex]').textContent()) ?? '';
    expect(bib).toMatch(/^@software\{memlens,\n/);
    expect(bib).toContain('#/reproduce?bench=inmind&ret=bm25');
    expect(await page.locator('[data-cite-rows] [data-cite="inmind.bib"]').count()).toBe(1);
    const lines = page.locator('[data-table="paper"] a[data-paper-line]');
    for (const href of await lines.evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      expect(href).toBe('https://arxiv.org/abs/2607.24368');
  }, 300_000);

  it('links the Figure 4 quotes’ lines to the paper', async () => {
    await showView(page, harness.site.url, { bench: 'inmind-figure4', ret: 'bm25' });
    const line = page.locator('[data-figure4] a[data-paper-line="89"]');
    expect(await line.getAttribute('href')).toBe('https://arxiv.org/abs/2607.24368');
    expect(await line.innerText()).toBe('line 89');
  }, 300_000);
});
