// Every model file is checked against data/models.json in the worker before ONNX Runtime or the
// tokenizer sees it (issue 15, item 2): a tampered, truncated or HTML model.onnx is named with
// what was expected and what came, no vector is made or kept, and a fixed server just works.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import type { FaultRule } from '../../scripts/lib/static-server.ts';
import { buildSite } from '../../scripts/lib/site-build.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import { useHarness } from './harness.ts';

const WEIGHTS = 'models/tiny-bert/onnx/model.onnx';
const EMBED = /^Embed the \d+ LME-s background turns$/;
/** Deep inside the initializers: the graph still parses, one weight is off. */
const FLIP_AT = 150_000;

let root: string;
const harness = useHarness({ site: 'plain' });
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

beforeAll(async () => {
  root = await buildSite();
});

afterEach(async () => {
  harness.site.setFaults(null);
  for (const { context, watch } of opened.splice(0)) {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    await context.close().catch(() => undefined);
  }
});

async function freshPage(): Promise<Page> {
  const { context, page, watch } = await harness.tab({ viewport: { width: 1300, height: 900 } });
  opened.push({ context, watch });
  return page;
}

const weightsOnly =
  (fault: NonNullable<ReturnType<FaultRule>>): FaultRule =>
  (rel) =>
    rel === WEIGHTS ? fault : null;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function pinnedWeights(): { sha256: string; bytes: number } {
  const file = getModelSpec('tiny-bert').files.find((f) => f.path === 'onnx/model.onnx');
  if (!file?.sha256 || !file.bytes) throw new Error('tiny-bert weights are not pinned');
  return { sha256: file.sha256, bytes: file.bytes };
}

async function openEmbeddings(page: Page): Promise<void> {
  await page.goto(`${harness.site.url}#/embeddings?model=tiny-bert&device=wasm`);
  await page.getByRole('button', { name: EMBED }).and(page.locator(':enabled')).waitFor({
    timeout: 180_000,
  });
}

/** Starts a run and returns the message it ends with (another than `before`, still shown). */
async function embedFails(page: Page, before = ''): Promise<string> {
  await page.getByRole('button', { name: EMBED }).click();
  const alert = page.locator('.page [role="alert"]');
  const handle = await page.waitForFunction(
    (previous) => {
      const text = document.querySelector('.page [role="alert"]')?.textContent ?? '';
      return text !== '' && text !== previous ? text : null;
    },
    before,
    { timeout: 120_000 },
  );
  await handle.dispose();
  return alert.innerText();
}

async function cacheCount(page: Page): Promise<string> {
  return (await page.locator('.device-panel').getAttribute('data-cache-count')) ?? '';
}

/** The tables loaded before the failures, read on Your data without a reload. */
async function inmindTasks(page: Page): Promise<number> {
  await page.evaluate(() => (location.hash = '#/mydata'));
  const cell = page.locator('[data-table-count="inmind_tasks"]');
  await cell.waitFor({ timeout: 120_000 });
  return Number((await cell.innerText()).replace(/[^0-9]/g, ''));
}

describe('model files are verified in the browser', () => {
  it('a tampered model.onnx: expected and actual sha256, no vectors; fixed server: a clean run', async () => {
    const pin = pinnedWeights();
    const tampered = new Uint8Array(readFileSync(path.join(root, WEIGHTS)));
    tampered[FLIP_AT] ^= 1;
    const page = await freshPage();
    await openEmbeddings(page);
    harness.site.setFaults(weightsOnly({ kind: 'flip', offset: FLIP_AT }));

    const message = await embedFails(page);
    expect(message).toContain(
      `${WEIGHTS}: sha256 mismatch: expected ${pin.sha256}, got ${sha256(tampered)}`,
    );
    expect(message).not.toMatch(/protobuf/i);
    expect(await page.locator('[data-embed-counts]').count()).toBe(0);
    expect(await cacheCount(page)).toBe('0');
    expect(await page.getByRole('button', { name: EMBED }).isEnabled()).toBe(true);

    harness.site.setFaults(null);
    await page.getByRole('button', { name: EMBED }).click();
    await page.waitForSelector('[data-phase="done"]', { timeout: 180_000 });
    const counts = page.locator('[data-embed-counts]');
    expect(await counts.getAttribute('data-done')).toBe('486');
    expect(await counts.getAttribute('data-cached')).toBe('0');
    expect(await page.locator('.page [role="alert"]').count()).toBe(0);
    expect(await page.locator('[data-field="integrity"]').innerText()).toBe(
      '4 files verified against data/models.json (size and sha256)',
    );
    expect(await inmindTasks(page)).toBe(125);
  });

  it('a truncated model.onnx and an HTML page for it: each named, the data kept', async () => {
    const pin = pinnedWeights();
    const page = await freshPage();
    await openEmbeddings(page);

    harness.site.setFaults(weightsOnly({ kind: 'truncate', bytes: 4096 }));
    const truncated = await embedFails(page);
    expect(truncated).toContain(`${WEIGHTS}: sha256 mismatch: expected ${pin.sha256}, got `);
    expect(truncated).toContain(`(truncated: expected ${pin.bytes} bytes, got 4096)`);
    expect(truncated).not.toMatch(/protobuf/i);

    harness.site.setFaults(weightsOnly({ kind: 'html' }));
    const html = await embedFails(page, truncated);
    expect(html).toContain('onnx/model.onnx (the server answered with an HTML page)');
    expect(await cacheCount(page)).toBe('0');
    expect(await inmindTasks(page)).toBe(125);
  });
});

// Issue 21, item 6: the scripts and wasm the page runs outside its import map's reach are checked
// by the page before they run, on a first visit too (a new profile: the service worker's precache
// stops at the bad file, so it never controls the page and the bytes come from the server).
const asset = (prefix: string, ext: string): string => {
  const name = readdirSync(path.join(root, 'assets')).find(
    (n) => n.startsWith(prefix) && n.endsWith(ext),
  );
  if (!name) throw new Error(`no ${prefix}*${ext} in the build`);
  return `assets/${name}`;
};

const flippedAt = (rel: string, offset: number) => {
  const bytes = new Uint8Array(readFileSync(path.join(root, rel)));
  const original = sha256(bytes);
  bytes[offset] ^= 1;
  return { original, flipped: sha256(bytes) };
};

/** The `self.name` of every worker the page starts, as it starts, and the workers by name. */
function workerNames(page: Page): string[] & { byName: Map<string, Worker> } {
  const names = Object.assign([] as string[], { byName: new Map<string, Worker>() });
  page.on('worker', (worker) => {
    void worker
      .evaluate(() => self.name)
      .then(
        (name) => {
          names.push(name);
          names.byName.set(name, worker);
        },
        () => names.push('(closed before it answered)'),
      );
  });
  return names;
}

/** What the worker's Content-Security-Policy says of a fetch to another origin. */
const violatedBy = (worker: Worker) =>
  worker.evaluate(
    () =>
      new Promise<string>((resolve) => {
        self.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective));
        fetch('http://127.0.0.1:9/leak').catch(() => undefined);
        setTimeout(() => resolve('no violation'), 5_000);
      }),
  );

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

describe('first visit: workers and ORT wasm checked before they run', () => {
  it('a flipped byte in the embed worker chunk: named at once, never run; fixed server: a clean run', async () => {
    const rel = asset('embed-worker-', '.js');
    const { original, flipped } = flippedAt(rel, 20_000);
    harness.site.setFaults((r) => (r === rel ? { kind: 'flip', offset: 20_000 } : null));
    const page = await freshPage();
    const names = workerNames(page);
    await openEmbeddings(page);
    const started = Date.now();
    const message = await embedFails(page);
    console.log(`embed worker chunk flipped: noticed ${Date.now() - started} ms after Embed`);
    expect(message).toMatch(new RegExp(`${path.basename(rel)}: [0-9.]+ KiB whose`));
    expect(message).toContain(
      `whose sha256 is ${flipped.slice(0, 12)}…, not this build's ${original.slice(0, 12)}…`,
    );
    expect(await controlled(page)).toBe(false);
    expect(names).not.toContain('memlens-embed');
    expect(await cacheCount(page)).toBe('0');
    expect(await page.getByRole('button', { name: EMBED }).isEnabled()).toBe(true);

    harness.site.setFaults(null);
    await page.getByRole('button', { name: EMBED }).click();
    await page.waitForSelector('[data-phase="done"]', { timeout: 180_000 });
    expect(await page.locator('[data-embed-counts]').getAttribute('data-done')).toBe('486');
    expect(names).toContain('memlens-embed');
    // The blob: worker keeps the page's policy, with no header from this plain static server.
    const embedWorker = names.byName.get('memlens-embed');
    if (!embedWorker) throw new Error('no embed worker');
    expect(await violatedBy(embedWorker)).toBe('connect-src');
    expect(await inmindTasks(page)).toBe(125);
  });

  it("a flipped byte in ORT's wasm: named at once, never compiled; fixed server: a clean run", async () => {
    const rel = asset('ort-wasm-simd-threaded.asyncify-', '.wasm');
    const { original, flipped } = flippedAt(rel, 1_000_000);
    harness.site.setFaults((r) => (r === rel ? { kind: 'flip', offset: 1_000_000 } : null));
    const page = await freshPage();
    const wasmRequests: string[] = [];
    page.context().on('request', (req) => {
      // The service worker's precache asks too (and stops there); the page's side is counted.
      if (req.url().endsWith(path.basename(rel)) && !req.serviceWorker()) {
        wasmRequests.push(req.url());
      }
    });
    await openEmbeddings(page);
    const started = Date.now();
    const message = await embedFails(page);
    console.log(`ORT wasm flipped: noticed ${Date.now() - started} ms after Embed`);
    expect(message).toContain(
      `${path.basename(rel)}: 25.6 MiB whose sha256 is ${flipped.slice(0, 12)}…, not this build's ${original.slice(0, 12)}…`,
    );
    expect(await controlled(page)).toBe(false);
    // Asked for twice by the check (once more past the caches); ORT never asked for it.
    expect(wasmRequests).toHaveLength(2);
    expect(await cacheCount(page)).toBe('0');

    harness.site.setFaults(null);
    await page.getByRole('button', { name: EMBED }).click();
    await page.waitForSelector('[data-phase="done"]', { timeout: 180_000 });
    expect(await page.locator('[data-embed-counts]').getAttribute('data-done')).toBe('486');
    expect(await inmindTasks(page)).toBe(125);
  });

  it('a flipped byte in the map worker chunk: the map says which file, the run and tables stay', async () => {
    const rel = asset('map-worker-', '.js');
    const { original, flipped } = flippedAt(rel, 5_000);
    harness.site.setFaults((r) => (r === rel ? { kind: 'flip', offset: 5_000 } : null));
    const page = await freshPage();
    const names = workerNames(page);
    const params = new URLSearchParams({ bench: 'inmind', ret: 'tiny-bert', device: 'wasm' });
    await page.goto(`${harness.site.url}#/reproduce?${params.toString()}`);
    await page.waitForSelector('[data-phase="done"][data-benchmark="inmind"]', {
      timeout: 280_000,
    });
    const started = Date.now();
    const alert = page.locator('.embedding-map [role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    console.log(`map worker chunk flipped: noticed ${Date.now() - started} ms after the run`);
    expect(await alert.innerText()).toContain(
      `The map could not be projected: ${path.basename(rel)}: `,
    );
    expect(await alert.innerText()).toContain(
      `whose sha256 is ${flipped.slice(0, 12)}…, not this build's ${original.slice(0, 12)}…`,
    );
    expect(await controlled(page)).toBe(false);
    expect(names).not.toContain('memlens-map');
    expect(await page.locator('[data-table="recall"] tbody tr').count()).toBeGreaterThan(0);
    expect(await inmindTasks(page)).toBe(125);
  });
});
