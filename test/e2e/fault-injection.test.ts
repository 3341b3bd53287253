// A hostile network and a careless user, one test per finding of issue 15: each asserts the
// message shown and that what was loaded before survives (docs/reliability.md).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, watchPage, type PageWatch } from './browser.ts';
import { serveStatic, type FaultRule, type StaticServer } from './static-server.ts';
import { E2E_BASE, buildSite } from './site.ts';
import type { PrecacheEntry, PrecacheManifest } from '../../src/lib/offline/precache.ts';

let manifest: PrecacheManifest;
let server: StaticServer;
let browser: Browser;
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

beforeAll(async () => {
  const root = await buildSite();
  manifest = JSON.parse(readFileSync(path.join(root, 'precache-manifest.json'), 'utf8'));
  server = await serveStatic({ root, base: E2E_BASE });
  browser = await launchChromium();
});

afterEach(async () => {
  server.setFaults(null);
  for (const { context, watch } of opened.splice(0)) {
    expect(watch.foreignRequests(server.origin)).toEqual([]);
    await context.close();
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A new browser profile: no service worker, no caches. */
async function freshPage(): Promise<{ page: Page; context: BrowserContext; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page);
  opened.push({ context, watch });
  return { page, context, watch };
}

function entry(pattern: RegExp): PrecacheEntry {
  const found = manifest.precache.find((e) => pattern.test(e.url));
  if (!found) throw new Error(`no precached file matches ${pattern}`);
  return found;
}

const onPath =
  (faults: Record<string, NonNullable<ReturnType<FaultRule>>>): FaultRule =>
  (rel) =>
    faults[rel] ?? null;

async function tableCount(page: Page, table: string): Promise<number> {
  const cell = page.locator(`[data-table-count="${table}"]`);
  await cell.waitFor({ timeout: 180_000 });
  return Number((await cell.innerText()).replace(/[^0-9]/g, ''));
}

async function offlineError(page: Page): Promise<string> {
  await page.waitForSelector('[data-offline-state="error"]', { timeout: 180_000 });
  return page.locator('.offline-panel .error').innerText();
}

async function cachedBytes(page: Page, url: string): Promise<number> {
  return page.evaluate(
    async ([version, rel]) => {
      const cache = await caches.open(`memlens-precache-${version}`);
      const hit = await cache.match(new URL(rel, document.baseURI).href);
      return hit ? (await hit.arrayBuffer()).byteLength : -1;
    },
    [manifest.version, url] as const,
  );
}

describe('the service worker verifies before it caches', () => {
  it('a truncated duckdb-eh.wasm during install: named, never cached, healed once the server is fixed', async () => {
    const wasm = entry(/duckdb-eh[^/]*\.wasm$/);
    server.setFaults(onPath({ [wasm.url]: { kind: 'truncate', bytes: 4096 } }));
    const { page } = await freshPage();
    await page.goto(`${server.url}#/mydata`);
    const fatal = page.locator('p.error', { hasText: 'MemLens could not start' });
    await fatal.waitFor({ timeout: 180_000 });
    expect(await fatal.innerText()).toMatch(/DuckDB could not start \(duckdb-eh[^,]*\.wasm, /);
    expect(await offlineError(page)).toContain(
      `${wasm.url}: sha256 mismatch: expected ${wasm.sha256}`,
    );
    expect(await page.locator('.offline-headline').innerText()).toBe('Offline use: unavailable');
    expect(await cachedBytes(page, wasm.url)).toBe(-1);

    server.setFaults(null);
    await page.getByRole('button', { name: 'Try again' }).click();
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    await page.reload();
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    expect(await cachedBytes(page, wasm.url)).toBe(wasm.bytes);
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
  });

  it('index.html served for locomo10.json during install: named, InMind kept, healed on reload', async () => {
    const locomo = 'data/locomo/locomo10.json';
    server.setFaults(onPath({ [locomo]: { kind: 'html' } }));
    const { page } = await freshPage();
    await page.goto(`${server.url}#/mydata`);
    const failed = page.locator('p.error', { hasText: 'Conversation benchmarks' });
    await failed.waitFor({ timeout: 180_000 });
    expect(await failed.innerText()).toBe(
      'Conversation benchmarks: locomo/locomo10.json: the server answered with an HTML page instead of this file',
    );
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    expect(await offlineError(page)).toContain(`${locomo}: the server answered with an HTML page`);
    expect(await cachedBytes(page, locomo)).toBe(-1);

    server.setFaults(null);
    await page.reload();
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    expect(await page.locator('p.error').count()).toBe(0);
  });
});

describe('pinned files are verified where they are read', () => {
  it('a flipped byte in MemUse, a changed results cell and an HTML data index are all shown', async () => {
    const results = entry(/^assets\/inmind-[^/]*\.csv$/);
    server.setFaults(
      onPath({
        'data/memuse/instances.test.first3.jsonl': { kind: 'flip', offset: 500 },
        [results.url]: { kind: 'replace', from: '92.0', to: '12.0' },
        'data/index.json': { kind: 'html' },
      }),
    );
    const { page } = await freshPage();
    await page.goto(`${server.url}#/mydata`);
    const resultsError = page.locator('p.error', { hasText: 'Released results' });
    await resultsError.waitFor({ timeout: 180_000 });
    expect(await resultsError.innerText()).toMatch(
      /^Released results: data\/results\/inmind\.csv: sha256 mismatch: expected [0-9a-f]{64}, got [0-9a-f]{64}$/,
    );
    const memuse = page.locator('[data-load-warning]', { hasText: 'MemUse' });
    await memuse.waitFor({ timeout: 180_000 });
    expect(await memuse.innerText()).toMatch(
      /^MemUse not loaded: memuse\/instances\.test\.first3\.jsonl: sha256 mismatch/,
    );
    expect(
      await page.locator('[data-load-warning]', { hasText: 'data/index.json' }).innerText(),
    ).toBe('data/index.json: the server answered with an HTML page instead of this file');
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
  });
});

describe('a dead worker is noticed', () => {
  it('the DuckDB worker closed: announced, started again, the benchmark tables reloaded', async () => {
    const { page } = await freshPage();
    await page.goto(`${server.url}#/mydata`);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    const duck = page.workers().find((w) => w.url().includes('duckdb-browser'));
    if (!duck) throw new Error('no DuckDB worker');
    void duck.evaluate(() => self.close()).catch(() => undefined);
    const notice = page.locator('[data-engine-notice]');
    await expect
      .poll(() => notice.innerText().catch(() => ''), { timeout: 60_000 })
      .toMatch(/^DuckDB stopped \(the worker stopped answering\) and was started again/);
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    expect(await page.locator('p.error').count()).toBe(0);
  });

  it('the network cut while the first load runs: the load resumes when the browser is back online', async () => {
    const { page, context } = await freshPage();
    await page.goto(`${server.url}#/mydata`, { waitUntil: 'commit' });
    await page.waitForSelector('header.topbar');
    await context.setOffline(true);
    await page.waitForSelector('p.error', { timeout: 120_000 });
    await context.setOffline(false);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    await expect.poll(() => page.locator('p.error').count(), { timeout: 30_000 }).toBe(0);
  });
});
