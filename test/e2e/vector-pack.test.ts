import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import {
  EMBED_BUTTON,
  cacheCount,
  counts,
  waitForEmbedReady,
  type WatchedPage,
} from '../lib/embed/page-helpers.ts';
import { maxAbsDiff } from '../lib/embed/reference-vectors.ts';
import { corpusTexts, embedPack } from '../../scripts/lib/embed-pack.ts';
import { inPageOrder, lmeBackgroundRows } from '../../src/lib/datasets/inmind.ts';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import { vectorKey } from '../../src/lib/embed/vector-cache-key.ts';
import { readVectorPack, type PackRow } from '../../src/lib/vectors/pack.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';
import { useHarness } from './harness.ts';

const TURNS = 486;
const DIM = 32;

const harness = useHarness({ site: 'plain' });
let tab: WatchedPage;
let dir: string;
let packFile: string;
let cliRows: PackRow[];
/** The CLI's vector for each turn, in the page's order (the Embeddings page's SQL order). */
let cliVectors: Float32Array[];

async function pageTurnOrder(): Promise<string[]> {
  const file = path.join(repoRoot, 'public/data/inmind/lme_s_background.jsonl');
  const turns = lmeBackgroundRows(await readFile(file, 'utf8'));
  return inPageOrder(turns).map((t) => t.content);
}

async function embedAll(): Promise<void> {
  await waitForEmbedReady(tab.page);
  await tab.page.getByRole('button', { name: EMBED_BUTTON }).click();
  await tab.page.locator('[data-phase="done"], [data-phase="error"]').waitFor({ timeout: 120_000 });
  expect(await tab.page.locator('section.page').getAttribute('data-phase')).toBe('done');
}

async function lastRun(): Promise<number[]> {
  const run = await tab.page.evaluate(() => window.memlens?.lastRun() ?? null);
  if (!run) throw new Error('no completed run');
  expect(run.dim).toBe(DIM);
  return run.vectors;
}

const keyed = (rows: readonly PackRow[]) =>
  new Map(rows.map((r) => [vectorKey(r.scope, r.textSha256), Array.from(r.vector)]));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'memlens-pack-'));
  const texts = await corpusTexts({
    kind: 'lme-background',
    dataRoot: path.join(repoRoot, 'public/data'),
  });
  const pack = await embedPack({ model: parseModelRef('tiny-bert'), kind: 'document', texts });
  packFile = path.join(dir, 'lme.parquet');
  await writeFile(packFile, new Uint8Array(pack.bytes));
  cliRows = await readVectorPack(pack.bytes);
  const bySha = new Map(cliRows.map((r) => [r.textSha256, r.vector]));
  const order = await pageTurnOrder();
  cliVectors = await Promise.all(
    order.map(async (t) => {
      const v = bySha.get(await sha256Hex(t));
      if (!v) throw new Error('a turn is missing from the pack');
      return v;
    }),
  );
  tab = await harness.open('#/embeddings?model=tiny-bert&device=wasm');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('vector packs: written by the CLI, imported and exported by the Embeddings page', () => {
  it('imports the CLI pack, and a run then makes no embedding call and yields its vectors', async () => {
    const { page } = tab;
    await waitForEmbedReady(page);
    expect(await cacheCount(page)).toBe(0);
    await page.locator('[data-pack-import]').setInputFiles(packFile);
    const status = page.locator(`[data-pack-status][data-imported="${cliRows.length}"]`);
    await status.waitFor({ timeout: 60_000 });
    expect(await status.innerText()).toBe(`Imported ${cliRows.length} vectors from lme.parquet.`);
    expect(await cacheCount(page)).toBe(cliRows.length);

    await embedAll();
    expect(await counts(page)).toEqual({ done: TURNS, cached: TURNS, computed: 0, modelCalls: 0 });
    expect(await lastRun()).toEqual(cliVectors.flatMap((v) => Array.from(v)));
  });

  it('exports that run as a pack with the same keys and vectors', async () => {
    const { page } = tab;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export the last run as a vector pack' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('memlens-vectors-tiny-bert-fp32.parquet');
    const bytes = await readFile(await download.path());
    const exported = await readVectorPack(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    expect(keyed(exported)).toEqual(keyed(cliRows));
  });

  it('gives the same vectors as embedding in the browser, to float32 rounding', async () => {
    const { page } = tab;
    await page.getByRole('button', { name: 'Clear cache' }).click();
    await page.waitForSelector('.device-panel[data-cache-count="0"]');
    await embedAll();
    const c = await counts(page);
    expect(c.cached).toBe(0);
    expect(c.computed).toBe(cliRows.length);
    const diff = maxAbsDiff(await lastRun(), DIM, cliVectors);
    console.info(`pack (onnxruntime-node) vs browser WASM: max |Δ| ${diff.toExponential(1)}`);
    expect(diff).toBeLessThan(1e-5);
  });

  it('refuses a file that is not a pack, and the page made no request outside its origin', async () => {
    const { page } = tab;
    const bad = path.join(dir, 'bad.parquet');
    await writeFile(bad, 'not parquet');
    await page.locator('[data-pack-import]').setInputFiles(bad);
    await expect
      .poll(() => page.locator('[data-pack-status]').innerText())
      .toMatch(/^Could not import bad\.parquet: not a Parquet file/);
    expect(tab.watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(tab.watch.consoleErrors).toEqual([]);
  });
});
