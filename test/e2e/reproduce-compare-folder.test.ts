// A local ONNX folder picked in the page (`<input webkitdirectory>`) joins the Reproduce
// comparison: tiny-bert's export with sentence-transformers files, read and digested in the page,
// embedded in the worker from the picked files (each checked against its sha256), ranks InMind
// exactly as the site's tiny-bert; every file's sha256 is on the page and in the CSV; a reload asks
// for the folder again. tiny-bert keeps it short.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import {
  MODEL_FILES,
  sentenceTransformersFiles,
  writeTinyModel,
} from '../support/tiny-st-model.ts';
import { compareCell, pickAndCompare, useHarness } from './harness.ts';

const REFS = 'bm25,tiny-bert:fp32';
const FOLDER = 'onnx:my-tiny';
const FILES = MODEL_FILES;
const ST = sentenceTransformersFiles({ maxSeqLength: true });

const harness = useHarness({ site: 'isolated' });
let tmp: string;
let dir: string;
let weightsSha: string;
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'memlens-compare-folder-'));
  dir = path.join(tmp, 'my-tiny');
  await writeTinyModel(dir, ST);
  const weights = await readFile(path.join(dir, 'onnx/model.onnx'));
  weightsSha = createHash('sha256').update(weights).digest('hex');
  ({ page, watch } = await harness.tab());
}, 900_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const cell = (pair: string, field: string) => compareCell(page, pair, field);

describe('Reproduce comparison with a picked ONNX folder (InMind, tiny-bert)', () => {
  it("ranks exactly as the site's tiny-bert, each file's sha256 shown and exported", async () => {
    await page.goto(`${harness.site.url}#/reproduce?bench=inmind&ret=bm25&device=wasm&cmp=${REFS}`);
    await pickAndCompare(page, '[data-compare-folder]', dir, `${REFS},${FOLDER}`);
    expect(page.url()).toContain(`cmp=${encodeURIComponent(`${REFS},${FOLDER}`)}`);
    expect(await cell(`tiny-bert:fp32|${FOLDER}`, 'b')).toBe('0');
    expect(await cell(`tiny-bert:fp32|${FOLDER}`, 'c')).toBe('0');
    expect(await cell(`bm25|${FOLDER}`, 'b')).toBe(await cell('bm25|tiny-bert:fp32', 'b'));
    const shown = page.locator(
      `[data-folder-files="${FOLDER}"] tr[data-file="onnx/model.onnx"] [data-field="sha256"]`,
    );
    expect(await shown.textContent()).toBe(weightsSha);
    expect(await page.locator(`[data-folder-files="${FOLDER}"] tr[data-file]`).count()).toBe(
      FILES.length + Object.keys(ST).length,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-export-compare]'),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const row = csv.split('\n').find((l) => l.startsWith(`inmind,naive,series,,bm25,${FOLDER},`));
    expect(row).toContain(`onnx/model.onnx sha256 ${weightsSha}`);
    expect(row).toMatch(/,files:[0-9a-f]{64},/);
  }, 700_000);

  it('refuses a folder without the sentence-transformers files, naming what is missing', async () => {
    const bare = path.join(tmp, 'bare');
    await writeTinyModel(bare);
    await page.setInputFiles('[data-compare-folder]', bare);
    await page.waitForSelector('[data-folder-error]');
    expect(await page.textContent('[data-folder-error]')).toMatch(
      /^onnx:bare: modules\.json is missing/,
    );
  }, 120_000);

  it('asks for the folder again after a reload, and stays on its origin', async () => {
    await page.reload();
    await page.waitForSelector('[data-compare-error]', { timeout: 120_000 });
    expect(await page.textContent('[data-compare-error]')).toMatch(
      /onnx:my-tiny: pick the folder again/,
    );
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
  }, 200_000);
});
