// A Hub model added to the Reproduce comparison by reference: the test build downloads from a
// stand-in Hub under the site (`<base>hub/OWNER/NAME/resolve/COMMIT/FILE`, tiny-bert with minimal
// sentence-transformers files). Nothing is requested before the reader agrees; the download shows
// progress and Cancel; the digests are shown and exported; with the files deleted, a changed file
// is refused on the next download (a reload asks again first) naming both digests; once right it
// joins again, and a reload with the files kept restores it without asking. Every request stays on the page's origin.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import {
  MODEL_FILES,
  sentenceTransformersFiles,
  writeTinyModel,
} from '../support/tiny-st-model.ts';
import { useHarness } from './harness.ts';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const REPO = 'memlens/tiny-st';
const HUB = `hub:${REPO}@${COMMIT}`;
const WEIGHTS = `hub/${REPO}/resolve/${COMMIT}/onnx/model.onnx`;
const FILES = MODEL_FILES;
const FLIP_AT = 1000;

let tmp: string;
let weightsSha: string;
let flippedSha: string;
// Chromium logs each 404 of the stand-in Hub: the optional files (sentence_bert_config.json, …)
// the model lacks are asked for and found missing, as on the Hub.
const harness = useHarness({
  expectedErrors: [
    'Failed to load resource: the server responded with a status of 404 (Not Found)',
  ],
});
let server: StaticServer;
let page: Page;
let watch: PageWatch;

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const hubRequests = () => server.requests.filter((r) => r.startsWith(`${E2E_BASE}hub/`));

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'memlens-compare-hub-'));
  const dir = path.join(tmp, REPO, 'resolve', COMMIT);
  await writeTinyModel(dir, sentenceTransformersFiles());
  const weights = await readFile(path.join(dir, 'onnx/model.onnx'));
  weightsSha = sha(weights);
  const flipped = Buffer.from(weights);
  flipped[FLIP_AT] ^= 1;
  flippedSha = sha(flipped);
  server = await harness.serve({
    root: await buildSite(),
    base: E2E_BASE,
    crossOriginIsolated: true,
    mounts: { 'hub/': tmp },
  });
  ({ page, watch } = await harness.tab());
}, 900_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const compared = `[data-phase="compared"][data-refs="bm25,${HUB}"]`;

describe('Reproduce comparison with a Hub model (InMind, tiny-bert on a stand-in Hub)', () => {
  it('asks before any request, downloads with progress, shows and exports the digests', async () => {
    await page.goto(`${server.url}#/reproduce?bench=inmind&ret=bm25&device=wasm&cmp=bm25`);
    await page.fill('[data-compare-hub]', `${REPO}@main`);
    await page.click('[data-compare-hub-add]');
    expect(await page.textContent('[data-hub-error]')).toMatch(/"main" is a branch or tag/);

    await page.fill('[data-compare-hub]', `${REPO}@${COMMIT}`);
    await page.click('[data-compare-hub-add]');
    const consent = page.locator(`[data-hub-consent="${HUB}"]`);
    await consent.waitFor();
    expect(await consent.textContent()).toContain(`from ${new URL(server.origin).host}?`);
    expect(await consent.locator('[data-hub-planned="onnx/model.onnx"]').textContent()).toContain(
      'size not known before download',
    );
    expect(hubRequests()).toEqual([]);

    // The weights answer late once: the progress line and its Cancel are there meanwhile.
    let held = false;
    await page.route('**/onnx/model.onnx', async (route) => {
      if (!held) {
        held = true;
        await page.waitForSelector('[data-hub-progress] [data-hub-cancel]');
        await page.click('[data-hub-cancel]');
      }
      await route.continue();
    });
    await page.click('[data-hub-agree]');
    await page.waitForSelector('[data-hub-error]');
    expect(await page.textContent('[data-hub-error]')).toBe(
      `${HUB}: download cancelled; the files that arrived are kept with their digests`,
    );
    await page.unroute('**/onnx/model.onnx');

    // Agreed once in this tab: adding it again downloads without asking.
    await page.click('[data-compare-hub-add]');
    await page.waitForSelector(compared, { timeout: 120_000 });
    expect(page.url()).toContain(`cmp=${encodeURIComponent(`bm25,${HUB}`)}`);
    expect(
      await page.textContent(`[data-pairs="naive"] tr[data-pair="bm25|${HUB}"] [data-field="b"]`),
    ).toMatch(/^\d+$/);
    const files = page.locator(`[data-folder-files="${HUB}"]`);
    expect(
      await files.locator('tr[data-file="onnx/model.onnx"] [data-field="sha256"]').textContent(),
    ).toBe(weightsSha);
    expect(await files.locator('tr[data-file]').count()).toBe(FILES.length + 2);
    expect(await files.locator('[data-hub-trust]').textContent()).toMatch(
      /checked against|recorded/,
    );

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-export-compare]'),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const row = csv.split('\n').find((l) => l.startsWith(`inmind,naive,series,,bm25,${HUB},`));
    expect(row).toContain(`onnx/model.onnx sha256 ${weightsSha}`);
    expect(row).toMatch(/,files:[0-9a-f]{64},/);
  }, 200_000);

  it('refuses a changed file on the next download, naming it and both digests', async () => {
    await page.click(`[data-folder-files="${HUB}"] summary`);
    await page.click(`[data-folder-files="${HUB}"] [data-hub-forget]`);
    await page.waitForSelector('[data-hub-error]:has-text("downloaded files are deleted")');
    server.setFaults((rel) => (rel === WEIGHTS ? { kind: 'flip', offset: FLIP_AT } : null));
    await page.reload();
    const consent = page.locator(`[data-hub-consent="${HUB}"]`);
    await consent.waitFor({ timeout: 60_000 });
    expect(await consent.locator('[data-hub-planned="onnx/model.onnx"]').textContent()).toContain(
      'KiB',
    );
    expect(await page.locator('[data-phase="waiting-hub"]').count()).toBe(1);
    await page.click('[data-hub-agree]');
    await page.waitForSelector('[data-hub-error]');
    const message = await page.textContent('[data-hub-error]');
    expect(message).toContain(`${HUB} onnx/model.onnx: sha256 ${flippedSha} from `);
    expect(message).toContain(`first download recorded sha256 ${weightsSha}`);
  }, 120_000);

  it('downloads it again once the file is right; a reload with the files kept restores it without asking', async () => {
    server.setFaults(null);
    // Agreed to after this reload: adding it again downloads without asking.
    await page.fill('[data-compare-hub]', HUB);
    await page.click('[data-compare-hub-add]');
    await page.waitForSelector(compared, { timeout: 120_000 });
    const before = hubRequests().length;
    await page.reload();
    await page.waitForSelector(compared, { timeout: 120_000 });
    expect(await page.locator('[data-hub-consent]').count()).toBe(0);
    expect(hubRequests().length).toBe(before);
    expect(watch.foreignRequests(server.origin)).toEqual([]);
  }, 200_000);
});
