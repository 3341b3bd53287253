// A vector pack the reader brings to the Reproduce comparison: made by the CLI
// (`embed:pack --benchmark inmind --model tiny-bert`), picked in the page, it ranks InMind exactly
// as tiny-bert does in the page; a pack of other texts is refused by name; after a reload the
// page asks for the file again. A picked folder: reproduce-compare-folder.test.ts; a Hub model:
// reproduce-compare-hub.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { compareCell, pickAndCompare, useHarness } from './harness.ts';
import { benchmarkPack, embedPack } from '../../scripts/lib/embed-pack.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';

const REFS = 'bm25,tiny-bert:fp32';
const PACK = 'pack:inmind-tiny.parquet';
const harness = useHarness({ site: 'isolated' });
let tmp: string;
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'memlens-compare-pack-'));
  const model = parseModelRef('tiny-bert', { backend: 'node' });
  const good = await benchmarkPack({
    model,
    benchmark: 'inmind',
    site: path.join(repoRoot, 'public'),
  });
  await writeFile(path.join(tmp, 'inmind-tiny.parquet'), new Uint8Array(good.bytes));
  const other = await embedPack({ model, kind: 'document', texts: ['not an InMind text'] });
  await writeFile(path.join(tmp, 'other.parquet'), new Uint8Array(other.bytes));
  await writeFile(path.join(tmp, 'not-a-pack.parquet'), 'hello');
  ({ page, watch } = await harness.tab());
}, 900_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const cell = (pair: string, field: string) => compareCell(page, pair, field);

describe('Reproduce comparison with a picked vector pack (InMind, tiny-bert)', () => {
  it('ranks exactly as tiny-bert in the page, and the URL names the pack', async () => {
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=bm25&device=wasm&cmp=${REFS}`);
    const file = path.join(tmp, 'inmind-tiny.parquet');
    await pickAndCompare(page, '[data-compare-pack]', file, `${REFS},${PACK}`);
    expect(page.url()).toContain(`cmp=${encodeURIComponent(`${REFS},${PACK}`)}`);
    expect(await cell(`tiny-bert:fp32|${PACK}`, 'b')).toBe('0');
    expect(await cell(`tiny-bert:fp32|${PACK}`, 'c')).toBe('0');
    expect(await cell(`bm25|${PACK}`, 'b')).toBe(await cell('bm25|tiny-bert:fp32', 'b'));
    expect(await cell(`bm25|${PACK}`, 'c')).toBe(await cell('bm25|tiny-bert:fp32', 'c'));
  }, 700_000);

  it('refuses a file that is not a pack, and a pack of other texts, naming it', async () => {
    await page.setInputFiles('[data-compare-pack]', path.join(tmp, 'not-a-pack.parquet'));
    expect(await page.textContent('[data-pack-error]')).toMatch(
      /pack:not-a-pack\.parquet: not a Parquet file/,
    );
    await page.setInputFiles('[data-compare-pack]', path.join(tmp, 'other.parquet'));
    await page.waitForSelector('[data-compare-error]', { timeout: 120_000 });
    expect(await page.textContent('[data-compare-error]')).toMatch(
      /pack:other\.parquet: lacks vectors for \d+ of \d+ document texts of this benchmark/,
    );
  }, 200_000);

  it('asks for the file again after a reload, and stays on its origin', async () => {
    await page.goto(
      `${harness.site.url}#/reproduce?bench=inmind&ret=bm25&device=wasm&cmp=${REFS},${PACK}`,
    );
    await page.reload();
    await page.waitForSelector('[data-compare-error]', { timeout: 120_000 });
    expect(await page.textContent('[data-compare-error]')).toMatch(
      /pack:inmind-tiny\.parquet: pick the pack file again/,
    );
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
  }, 200_000);
});
