// Issue 37.6: each failure names the file, the field and the fix. A folder brought with a broken
// or another model's tokenizer.json is refused when picked, naming the file and the line or the
// token counts (main accepted both and failed later with raw JSON or ONNX Runtime errors); a pack
// imported with the storage full says so (main: "Could not import lme.parquet: " and nothing
// after the colon); a page whose chunk arrives corrupted names the page and offers Reload (main:
// the browser's "Failed to fetch dynamically imported module").
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { corpusTexts, embedPack } from '../../scripts/lib/embed-pack.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';
import { waitForEmbedReady } from '../lib/embed/page-helpers.ts';
import { sentenceTransformersFiles, writeTinyModel } from '../support/tiny-st-model.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({
  site: 'isolated',
  expectedErrors: [
    // The flipped chunk: refused by its integrity hash, then the import fails.
    /^Failed to find a valid digest in the 'integrity' attribute/,
    /^Failed to load resource: /,
    // The 20 KiB quota: the offline precache cannot store the site either.
    /QuotaExceededError|storage/i,
  ],
});
let tmp = '';

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'memlens-messages-'));
}, 60_000);
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('messages that name the file, the field and the fix', () => {
  it('refuses a picked folder whose tokenizer.json is broken, or another model’s', async () => {
    const { page } = await harness.open('#/reproduce?bench=inmind&ret=bm25&device=wasm&cmp=bm25', {
      ready: '[data-compare-folder]',
      timeout: 180_000,
    });
    const st = sentenceTransformersFiles({ maxSeqLength: true });
    const broken = path.join(tmp, 'broken');
    await writeTinyModel(broken, st);
    const tokenizer = await readFile(path.join(broken, 'tokenizer.json'), 'utf8');
    await writeFile(path.join(broken, 'tokenizer.json'), tokenizer.slice(0, 4000));
    await page.setInputFiles('[data-compare-folder]', broken);
    await page.waitForSelector('[data-folder-error]', { timeout: 60_000 });
    expect(await page.textContent('[data-folder-error]')).toMatch(
      /^onnx:broken: tokenizer\.json: not JSON: it ends early, after 4000 characters \(cut short\?\); copy the file again from the model's export/,
    );
    const other = path.join(tmp, 'other');
    await writeTinyModel(other, st);
    const minilm = readFileSync(path.join(repoRoot, 'public/models/minilm/tokenizer.json'));
    await writeFile(path.join(other, 'tokenizer.json'), minilm);
    await page.setInputFiles('[data-compare-folder]', other);
    await page.waitForSelector('[data-folder-error]:has-text("onnx:other")', { timeout: 60_000 });
    expect(await page.textContent('[data-folder-error]')).toMatch(
      /^onnx:other: tokenizer\.json has 30522 tokens but the model's embedding table has 621 rows \(config\.json vocab_size\)/,
    );
  }, 300_000);

  it('says the storage is full when a pack is imported past the quota', async () => {
    const texts = await corpusTexts({
      kind: 'lme-background',
      dataRoot: path.join(repoRoot, 'public/data'),
    });
    const pack = await embedPack({ model: parseModelRef('tiny-bert'), kind: 'document', texts });
    const file = path.join(tmp, 'lme.parquet');
    await writeFile(file, new Uint8Array(pack.bytes));
    const { page, context } = await harness.tab();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: harness.site.origin,
      quotaSize: 20 * 1024,
    });
    await page.goto(`${harness.site.url}#/embeddings?model=tiny-bert&device=wasm`);
    await waitForEmbedReady(page);
    await page.locator('[data-pack-import]').setInputFiles(file);
    const status = page.locator('[data-pack-status]', { hasText: 'Could not import' });
    await status.waitFor({ timeout: 120_000 });
    expect(await status.innerText()).toMatch(
      /^Could not import lme\.parquet: browser storage for this site is full(, [\d.]+ [KMG]?i?B of [\d.]+ [KMG]?i?B used)?; the file holds [\d.]+ KiB\. Free space \(Clear cache on this page, or remove tables kept on Your data\) or allow this site more storage, then import it again\.$/,
    );
  }, 300_000);

  it('names the page whose code arrived corrupted, and offers Reload', async () => {
    const manifest = JSON.parse(
      readFileSync(path.join(harness.root, 'precache-manifest.json'), 'utf8'),
    ) as { precache: { url: string }[] };
    const chunk = manifest.precache.find((e) => /^assets\/ConsolePage-[^/]*\.js$/.test(e.url));
    if (!chunk) throw new Error('no Console page chunk in the build');
    harness.site.setFaults((rel) => (rel === chunk.url ? { kind: 'flip', offset: 40 } : null));
    try {
      const { page } = await harness.open('#/console');
      const alert = page.locator('main [data-page-load-error]');
      await alert.waitFor({ timeout: 60_000 });
      expect(await alert.innerText()).toMatch(
        /^The SQL page could not be loaded: its code did not arrive intact\. The site may have been updated since this tab opened, or the download was corrupted; reload to fetch it again\.\s*Reload$/,
      );
      harness.site.setFaults(null);
      await alert.getByRole('button', { name: 'Reload' }).click();
      await page.waitForSelector('[data-console-status]', { timeout: 120_000 });
    } finally {
      harness.site.setFaults(null);
    }
  }, 300_000);
});
