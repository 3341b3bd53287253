import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import type { BrowserContext, Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, repoRoot } from '../../scripts/lib/site-build.ts';
import { SOURCES, mirrorPathOf } from '../../src/lib/data/sources.ts';
import { useHarness } from './harness.ts';

// The GitHub Pages build: non-redistributable files left out (the browser fetches them from
// their pinned upstream URLs) and cross-origin isolation from the service worker. There is no
// internet here, so the test answers the pinned upstream URLs from the local mirror; the
// unverified full files the mirror lacks (no published sha256) are answered with a verified
// file of the same shape (their excerpt, or the smaller composed set).
const MIRROR = path.resolve(repoRoot, '../shared/data');
const SAME_SHAPE: Record<string, string> = { 'locomo-conv-multimem-full': 'locomo-conv-multimem' };
const inMirror = (id: string) =>
  SOURCES.filter((s) => s.id === id || s.excerptOf === id || s.id === SAME_SHAPE[id])
    .map((s) => path.join(MIRROR, mirrorPathOf(s)))
    .find((p) => existsSync(p));
const UPSTREAM = new Map(
  SOURCES.flatMap((s) => {
    const file = s.url ? inMirror(s.id) : undefined;
    return s.url && file ? [[s.url, file] as const] : [];
  }),
);
const REQUIRED_INMIND = SOURCES.filter((s) => s.dataset === 'inmind' && s.required).map(
  (s) => s.url as string,
);
const TABLE1 = '[data-chart="inmind-table1"] .chart-canvas[data-rendered="true"]';

let out: string;
// The upstream files are answered by the context's route, never by the network.
const harness = useHarness({ offOrigin: (url) => UPSTREAM.has(url) });
let server: StaticServer;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;
let upstreamOnline = true;
const answered: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  out = mkdtempSync(path.join(os.tmpdir(), 'memlens-pages-'));
  const env = { MEMLENS_REDISTRIBUTABLE_ONLY: '1', MEMLENS_COI: 'sw', MEMLENS_BASE: E2E_BASE };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    await build({
      root: repoRoot,
      configFile: path.join(repoRoot, 'vite.config.ts'),
      base: E2E_BASE,
      // The test model ranks in the Playground offline below; production builds leave it out.
      define: { __MEMLENS_TEST_HOOKS__: 'true' },
      logLevel: 'warn',
      build: { outDir: out, emptyOutDir: true },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  server = await harness.serve({ root: out, base: E2E_BASE });
  context = await harness.context();
  await context.route(
    (url) => UPSTREAM.has(url.href),
    async (route) => {
      const url = route.request().url();
      if (!upstreamOnline) {
        refused.push(url);
        return route.abort('internetdisconnected');
      }
      answered.push(url);
      return route.fulfill({
        status: 200,
        body: readFileSync(UPSTREAM.get(url) as string),
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Content-Type': 'text/plain; charset=utf-8',
        },
      });
    },
  );
  ({ page, watch } = await harness.tab({ context }));
});

afterAll(async () => {
  if (out) rmSync(out, { recursive: true, force: true });
});

async function tinyBertRank(): Promise<number> {
  const cell = page
    .locator('[data-playground-ranks] tbody tr')
    .first()
    .locator('td[data-retriever="tiny-bert"]');
  await expect.poll(() => cell.innerText(), { timeout: 120_000 }).toMatch(/^#\d+/);
  return Number((await cell.innerText()).match(/^#(\d+)/)?.[1]);
}

describe('the GitHub Pages build (redistributable data only, isolation by the service worker)', () => {
  it('ships only redistributable data and says so in its index and manifest', () => {
    for (const s of SOURCES) {
      const shipped = existsSync(path.join(out, 'data', s.dataset, s.file));
      if (!s.redistributable) expect(shipped, s.id).toBe(false);
    }
    expect(existsSync(path.join(out, 'data/locomo/locomo10.json'))).toBe(true);
    const index = JSON.parse(readFileSync(path.join(out, 'data/index.json'), 'utf8'));
    expect(index.files).toEqual(['locomo']);
    const manifest = JSON.parse(readFileSync(path.join(out, 'precache-manifest.json'), 'utf8'));
    expect(manifest.coi).toBe(true);
    expect(existsSync(path.join(out, '.nojekyll'))).toBe(true);
  });

  it('loads InMind from the pinned upstream URLs, sha256-checked, and keeps them', async () => {
    await page.goto(`${server.url}#/inmind`);
    await page.waitForSelector(TABLE1, { timeout: 120_000 });
    await page.locator('tr[data-task-id]').first().waitFor({ timeout: 120_000 });
    expect(answered).toEqual(expect.arrayContaining(REQUIRED_INMIND));
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    await expect
      .poll(
        () =>
          page.evaluate(async () =>
            (await (await caches.open('memlens-upstream-v1')).keys()).map((r) => r.url),
          ),
        { timeout: 60_000 },
      )
      .toEqual(expect.arrayContaining(REQUIRED_INMIND));
  });

  it('is cross-origin isolated once the service worker serves the page', async () => {
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await page.reload();
    await page.waitForSelector(TABLE1, { timeout: 120_000 });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.locator('.offline-status summary').click();
    await page.getByText('WASM threads: on (cross-origin isolated).').waitFor();
    await page.locator('.offline-status summary').click();
    // Threaded ONNX Runtime (two threads on this machine) runs tiny-bert in the playground.
    await page.evaluate(() => (location.hash = '#/playground?tiny=on'));
    expect(await tinyBertRank()).toBeGreaterThan(0);
  });

  it('works offline, upstream files included', async () => {
    await server.close();
    upstreamOnline = false;
    await context.setOffline(true);
    await page.evaluate(() => (location.hash = '#/inmind'));
    await page.reload();
    await page.waitForSelector(TABLE1, { timeout: 120_000 });
    await page.getByLabel('Search tasks').fill('macaron');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.evaluate(() => (location.hash = '#/playground?case=cat&tiny=on'));
    expect(await tinyBertRank()).toBeGreaterThan(0);
    expect(refused).toEqual([]);
  });

  it('asked nothing of any other origin, and logged no console error', () => {
    const foreign = watch.foreignRequests(server.origin);
    expect(foreign.filter((u) => !UPSTREAM.has(u))).toEqual([]);
    expect(foreign.every((u) => answered.includes(u))).toBe(true);
    expect(watch.consoleErrors).toEqual([]);
  });
});
