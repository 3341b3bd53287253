// No input hangs the page: a declared benchmark whose query categories are `all`, `__proto__`,
// `constructor` (values a page could mistake for its own keys) draws Reproduce with no console
// error, and a Reproduce run after it in the same tab (`bench=inmind`) still finishes; a site
// vector pack whose server sends its headers and then nothing is named on the page after the
// stall time-out (shortened through the test builds' `memlensTimeouts` hook) and the run embeds
// in this browser instead.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { recallCells, showView } from '../lib/protocols/page-helpers.ts';
import { loadFile, useHarness } from './harness.ts';

const FIXTURES = path.join(repoRoot, 'test/fixtures/userdata');
/** The site pack's stall time-out in these pages: short, so the test does not wait 30 s. */
const STALL_MS = 2_000;

const harness = useHarness({
  site: {
    packs: { models: ['tiny-bert'], dtypes: ['fp32'], protocols: ['inmind?bg=content'] },
  },
});
let page: Page;

beforeAll(async () => {
  // Without the service worker, which precaches the site's packs at install: the pack comes
  // from the server, as on a first visit before the install ends or in a browser without one.
  const context = await harness.context({ serviceWorkers: 'block' });
  await context.addInitScript((ms) => {
    Object.assign(window, { memlensTimeouts: { 'site-pack': ms } });
  }, STALL_MS);
  ({ page } = await harness.tab({ context }));
  await page.goto(`${harness.site.url}#/mydata`);
  await page.waitForSelector('[data-table-count="inmind_tasks"]', { timeout: 180_000 });
  await declare('category-all.jsonl', 'user_category_all');
  await declare('category-proto.jsonl', 'user_category_proto');
}, 600_000);

async function declare(file: string, table: string): Promise<void> {
  await loadFile(page, path.join(FIXTURES, file), table);
  const form = page.locator(`[data-declaration="${table}"]`);
  await form.locator('[data-part="query.category"] option[value="fields.category"]').waitFor({
    state: 'attached',
  });
  await form.locator('[data-declare]').click();
  await form.locator('[data-declared]').waitFor();
}

describe('no input hangs the page', () => {
  it('draws a declared benchmark whose one query category is "all"', async () => {
    await showView(page, harness.site.url, { bench: 'user_category_all', ret: 'bm25' }, {}, 60_000);
    const cells = await recallCells(page);
    expect([...cells.keys()]).toEqual(['query', 'query|all']);
    expect(cells.get('query')?.hits).toBe(cells.get('query|all')?.hits);
  }, 300_000);

  it('then runs InMind in the same tab, on the same page, to the end', async () => {
    await showView(page, harness.site.url, { bench: 'inmind', ret: 'bm25' }, {}, 120_000);
    expect((await recallCells(page)).get('naive')).toBeDefined();
  }, 300_000);

  it('draws one whose categories are "__proto__", "constructor" and "toString"', async () => {
    await showView(
      page,
      harness.site.url,
      { bench: 'user_category_proto', ret: 'bm25' },
      {},
      60_000,
    );
    const cells = await recallCells(page);
    expect([...cells.keys()]).toEqual([
      'query',
      'query|__proto__',
      'query|constructor',
      'query|toString',
    ]);
    expect(cells.get('query|__proto__')?.hits).toMatch(/^\d\/2$/);
  }, 300_000);

  it('names a site pack that stalls after its headers, and embeds in this browser instead', async () => {
    harness.site.setFaults((rel) =>
      rel.startsWith('vectors/') && rel.endsWith('.parquet') ? { kind: 'stall', bytes: 0 } : null,
    );
    const pack = harness.packs[0];
    // A view the pack lists (a pack that lists none of the view's protocol is never fetched).
    await showView(
      page,
      harness.site.url,
      { bench: 'inmind', ret: 'tiny-bert' },
      { bg: 'content', device: 'wasm' },
      180_000,
    );
    const line = page.locator('[data-vector-source="unreadable"] [data-field="vector-source"]');
    expect(await line.innerText()).toBe(
      `The site's vectors could not be read (vectors/${pack.file}: no byte for ${STALL_MS / 1000} s, so the download was stopped; the server stalled); embedded in this browser instead.`,
    );
    expect(harness.site.requests.some((r) => r.endsWith(pack.file))).toBe(true);
  }, 300_000);
});
