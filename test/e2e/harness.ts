// The e2e files' set-up: the browser is launched and the site served here, not in each file. The
// e2e project runs its files one after another in one worker with a shared module graph
// (vitest.config.ts), so the browsers and the served builds below live once per worker, shared by
// every file that asks for them. Each file gets fresh browser contexts (no storage carried over) and a page watch that its
// afterAll checks: no page error, no request off the page's origin, no console error it did not
// name as expected.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium, watchPage, type PageWatch } from '../../scripts/lib/chromium.ts';
import {
  serveStatic,
  type ServeOptions,
  type StaticServer,
} from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import type { SiteVectorsOptions } from '../../scripts/lib/site-vectors.ts';
import type { SitePackEntry } from '../../src/lib/vectors/site-packs.ts';
import { siteWithPacks } from '../support/site-with-packs.ts';

/** The test build as served: with or without cross-origin isolation, or with its vector packs. */
export type SiteVariant =
  'plain' | 'isolated' | { packs: Omit<SiteVectorsOptions, 'site'>; crossOriginIsolated?: boolean };

export interface Tab {
  page: Page;
  context: BrowserContext;
  watch: PageWatch;
  /** Every response of status 400 or more, as `status url`. */
  failedResponses: string[];
}

export interface TabOptions extends BrowserContextOptions {
  webgpu?: boolean;
  /** A context from `harness.context()` to open the page in, instead of a fresh one. */
  context?: BrowserContext;
}

export interface OpenOptions extends TabOptions {
  /** A selector the route shows once it has reached its state. */
  ready?: string;
  /** How long to wait for `ready`. */
  timeout?: number;
}

export interface HarnessOptions {
  /** The site this file's pages open (`harness.site`); none for a file that serves its own. */
  site?: SiteVariant;
  /** Requests off the page's origin the file makes on purpose (each answered by a route). */
  offOrigin?: (url: string) => boolean;
  /** Console errors (and page errors, as `pageerror: …`) this file's pages log on purpose. */
  expectedErrors?: readonly (string | RegExp)[];
}

export interface Harness {
  /** The served site (after beforeAll). Its `requests` are this file's only. */
  readonly site: StaticServer;
  /** The folder the site is served from, for a server of the file's own (`serve`). */
  readonly root: string;
  /** The packs of a `{ packs }` site, in its index's order. */
  readonly packs: SitePackEntry[];
  /** The worker's browser (WebGPU on SwiftShader with `webgpu`), launched again if it crashed. */
  browser(opts?: { webgpu?: boolean }): Promise<Browser>;
  /** A fresh context, closed by the harness (for pages that share storage, or an init script). */
  context(opts?: TabOptions): Promise<BrowserContext>;
  /** A page in a fresh context (or the one given), watched and closed by the harness. */
  tab(opts?: TabOptions): Promise<Tab>;
  /** A fresh tab at `route` of the site (e.g. `#/reproduce?bench=inmind`), once `ready` shows. */
  open(route: string, opts?: OpenOptions): Promise<Tab>;
  /** A server of this file's own (faults, another build), closed after the file. */
  serve(opts: ServeOptions): Promise<StaticServer>;
}

const browsers = new Map<boolean, Promise<Browser>>();
interface SharedSite {
  server: StaticServer;
  root: string;
  packs: SitePackEntry[];
}

const sites = new Map<string, Promise<SharedSite>>();
const tempDirs: string[] = [];

process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

async function sharedBrowser(webgpu: boolean): Promise<Browser> {
  const running = await browsers.get(webgpu)?.catch(() => null);
  if (running?.isConnected()) return running;
  const launched = launchChromium({ webgpu });
  browsers.set(webgpu, launched);
  return launched;
}

async function startSite(variant: SiteVariant): Promise<SharedSite> {
  if (variant === 'plain' || variant === 'isolated') {
    const root = await buildSite();
    const crossOriginIsolated = variant === 'isolated';
    const server = await serveStatic({ root, base: E2E_BASE, crossOriginIsolated });
    return { server, root, packs: [] };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memlens-e2e-site-'));
  tempDirs.push(dir);
  const made = await siteWithPacks(dir, variant.packs);
  const server = await serveStatic({
    root: made.site,
    base: E2E_BASE,
    crossOriginIsolated: variant.crossOriginIsolated ?? true,
  });
  return { server, root: made.site, packs: made.packs };
}

/** One server per variant per worker; a file gets it serving its build, no faults, no requests. */
async function sharedSite(variant: SiteVariant): Promise<SharedSite> {
  const key = JSON.stringify(variant);
  let site = sites.get(key);
  if (!site) {
    site = startSite(variant);
    sites.set(key, site);
  }
  const ready = await site;
  reset(ready);
  ready.server.requests.length = 0;
  return ready;
}

function reset(site: SharedSite): void {
  site.server.setFaults(null);
  site.server.setRoot(site.root);
}

/** A copy of the test build (hard links) in a temporary folder the worker removes at its exit. */
export async function buildCopy(prefix: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `memlens-e2e-${prefix}-`));
  tempDirs.push(dir);
  const copy = path.join(dir, 'site');
  const cp = spawnSync('cp', ['-al', await buildSite(), copy]);
  if (cp.status !== 0) throw new Error(`cp -al: ${cp.stderr.toString()}`);
  return copy;
}

interface Opened {
  tab: Tab;
  origins: Set<string>;
}

function watched(page: Page, context: BrowserContext): Opened {
  const origins = new Set<string>();
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith('http')) {
      origins.add(new URL(frame.url()).origin);
    }
  });
  const failedResponses: string[] = [];
  context.on('response', (res) => {
    if (res.status() >= 400) failedResponses.push(`${res.status()} ${res.url()}`);
  });
  return { tab: { page, context, watch: watchPage(page), failedResponses }, origins };
}

function offOrigin(opened: Opened): string[] {
  const { urls } = opened.tab.watch;
  return urls.filter(
    (u) =>
      !u.startsWith('data:') &&
      !u.startsWith('blob:') &&
      ![...opened.origins].some((o) => u.startsWith(`${o}/`)),
  );
}

function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
}

/** Registers this file's set-up and teardown; call once at the top of a test file. */
export function useHarness(opts: HarnessOptions = {}): Harness {
  let shared: SharedSite | null = null;
  const opened: Opened[] = [];
  const contexts: BrowserContext[] = [];
  const own: StaticServer[] = [];
  const expected = opts.expectedErrors ?? [];
  // The worker runs file after file: what a file sets in process.env (a build's MEMLENS_BASE)
  // must not reach the next one.
  const env = { ...process.env };

  beforeAll(async () => {
    if (opts.site) shared = await sharedSite(opts.site);
  }, 900_000);

  afterAll(async () => {
    restoreEnv(env);
    const all = new Set([...contexts, ...opened.map((o) => o.tab.context)]);
    await Promise.all([...all].map((c) => c.close().catch(() => undefined)));
    await Promise.all(own.map((s) => s.close()));
    if (shared) reset(shared);
    // Every tab's at once, so one failure names them all.
    const problems = opened.flatMap((o) => {
      const where = [...o.origins].join(', ');
      const off = offOrigin(o).filter((u) => !opts.offOrigin?.(u));
      const unexpected = o.tab.watch.consoleErrors.filter(
        (e) => !expected.some((r) => (typeof r === 'string' ? e === r : r.test(e))),
      );
      return [
        ...off.map((u) => `${where}: request off the page's origin: ${u}`),
        ...unexpected.map((e) => `${where}: ${e}`),
      ];
    });
    expect(problems, 'page errors, unexpected console errors, requests off the origin').toEqual([]);
  });

  const harness: Harness = {
    get site() {
      if (!shared) throw new Error('useHarness: no site before beforeAll, or none asked for');
      return shared.server;
    },
    get root() {
      if (!shared) throw new Error('useHarness: no site before beforeAll, or none asked for');
      return shared.root;
    },
    get packs() {
      return shared?.packs ?? [];
    },
    browser: (o = {}) => sharedBrowser(o.webgpu ?? false),
    async context(o = {}) {
      const { webgpu, context: _unused, ...contextOptions } = o;
      const context = await (await sharedBrowser(webgpu ?? false)).newContext(contextOptions);
      contexts.push(context);
      return context;
    },
    async tab(o = {}) {
      const context = o.context ?? (await harness.context(o));
      const entry = watched(await context.newPage(), context);
      opened.push(entry);
      return entry.tab;
    },
    async open(route, o = {}) {
      const { ready, timeout, ...tabOptions } = o;
      const tab = await harness.tab(tabOptions);
      await tab.page.goto(`${harness.site.url}${route}`);
      if (ready) await tab.page.waitForSelector(ready, { timeout });
      return tab;
    },
    async serve(serveOpts) {
      const server = await serveStatic(serveOpts);
      own.push(server);
      return server;
    },
  };
  return harness;
}

/** A cell of the Reproduce comparison's paired table (naive series, recall@5 unless named). */
export function compareCell(
  page: Page,
  pair: string,
  field: string,
  where: { series?: string; metric?: string } = {},
): Promise<string | null> {
  const { series = 'naive', metric = 'recall@5' } = where;
  return page.textContent(
    `[data-pairs="${series}"] tr[data-pair="${pair}"][data-metric="${metric}"] [data-field="${field}"]`,
  );
}

/** Picks `file` in the input `selector` and waits for the comparison of `refs` to finish. */
export async function pickAndCompare(
  page: Page,
  selector: string,
  file: string,
  refs: string,
): Promise<void> {
  await page.setInputFiles(selector, file);
  await page.waitForSelector(`[data-phase="compared"][data-refs="${refs}"]`, { timeout: 600_000 });
}

/** On Your data: picks `file`, loads it with the mapping the page proposes, waits for `table`. */
export async function loadFile(page: Page, file: string, table: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(`[data-load-notice]:has-text("into ${table}.")`, { timeout: 180_000 });
}
