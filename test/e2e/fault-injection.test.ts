// A hostile network and a careless user, one test per finding of issue 15: each asserts the
// message shown and that what was loaded before survives (docs/reliability.md).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import type { FaultRule } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite, repoRoot } from '../../scripts/lib/site-build.ts';
import { build } from 'vite';
import type { PrecacheEntry, PrecacheManifest } from '../../src/lib/offline/precache.ts';
import { chartsSettled } from '../support/page-state.ts';
import { useHarness } from './harness.ts';

let manifest: PrecacheManifest;
let root: string;
// What the injected faults make the page log: the failed fetches and the errors they raise.
const harness = useHarness({
  site: 'plain',
  expectedErrors: [
    /^Failed to load resource: /,
    'pageerror: Failed to fetch',
    'ErrorEvent',
    // The service worker's script fetched while a fault is served (seen at load, not every run).
    'An unknown error occurred when fetching the script.',
    /^error in duckdb worker: Uncaught Error: \S+ could not be fetched and compiled: /,
  ],
});
const opened: { context: BrowserContext; watch: PageWatch }[] = [];

beforeAll(async () => {
  root = await buildSite();
  manifest = JSON.parse(readFileSync(path.join(root, 'precache-manifest.json'), 'utf8'));
});

afterEach(async () => {
  harness.site.setFaults(null);
  for (const { context, watch } of opened.splice(0)) {
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    await context.close().catch(() => undefined);
  }
});

/** A new browser profile: no service worker, no caches. */
async function freshPage(): Promise<{ page: Page; context: BrowserContext; watch: PageWatch }> {
  // One test that takes the browser down (a renderer crash under memory pressure) fails alone:
  // the harness launches it again.
  const { context, page, watch } = await harness.tab({ viewport: { width: 1300, height: 900 } });
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

/** What the page shows of its load, for a wait that ran out: CI keeps only the message. */
async function loadState(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      const texts = (selector: string) =>
        [...document.querySelectorAll(selector)].map((e) => (e.textContent ?? '').trim());
      const main = (document.querySelector('main')?.textContent ?? '').trim().slice(0, 300);
      return [
        `url ${location.href}`,
        `loading: ${texts('.loading span').join(' | ') || 'none'}`,
        `errors: ${texts('[role="alert"]').join(' | ') || 'none'}`,
        `tables: ${texts('[data-table-count]').length}`,
        `main: ${main}`,
      ].join('; ');
    })
    .catch((err: unknown) => `unreadable (${String(err)})`);
}

async function tableCount(page: Page, table: string): Promise<number> {
  const cell = page.locator(`[data-table-count="${table}"]`);
  try {
    await cell.waitFor({ timeout: 180_000 });
  } catch (err) {
    throw new Error(`no count for table ${table}: ${String(err)}\n${await loadState(page)}`);
  }
  return Number((await cell.innerText()).replace(/[^0-9]/g, ''));
}

async function offlineError(page: Page): Promise<string> {
  await page.waitForSelector('[data-offline-state="error"]', { timeout: 180_000 });
  return (await page.locator('.offline-panel .error').textContent()) ?? '';
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
    harness.site.setFaults(onPath({ [wasm.url]: { kind: 'truncate', bytes: 4096 } }));
    const { page } = await freshPage();
    await page.goto(`${harness.site.url}#/mydata`);
    const fatal = page.locator('[data-app-error]', { hasText: 'MemLens could not start' });
    await fatal.waitFor({ timeout: 180_000 });
    expect(await fatal.innerText()).toMatch(/DuckDB could not start \(duckdb-eh[^,]*\.wasm, /);
    expect(await offlineError(page)).toContain(
      `${wasm.url}: sha256 mismatch: expected ${wasm.sha256}`,
    );
    expect(await page.locator('.offline-headline').innerText()).toBe('Offline use: unavailable');
    expect(await cachedBytes(page, wasm.url)).toBe(-1);

    harness.site.setFaults(null);
    await page.getByRole('button', { name: 'Try again' }).click();
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    await page.reload();
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    expect(await cachedBytes(page, wasm.url)).toBe(wasm.bytes);
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
  });

  it('index.html served for locomo10.json during install: named, InMind kept, healed on reload', async () => {
    const locomo = 'data/locomo/locomo10.json';
    harness.site.setFaults(onPath({ [locomo]: { kind: 'html' } }));
    const { page } = await freshPage();
    await page.goto(`${harness.site.url}#/mydata`);
    const failed = page.locator('[data-app-error]', { hasText: 'Conversation benchmarks' });
    await failed.waitFor({ timeout: 180_000 });
    expect(await failed.innerText()).toBe(
      'Conversation benchmarks: locomo/locomo10.json: the server answered with an HTML page instead of this file',
    );
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    expect(await offlineError(page)).toContain(`${locomo}: the server answered with an HTML page`);
    expect(await cachedBytes(page, locomo)).toBe(-1);

    harness.site.setFaults(null);
    await page.reload();
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    expect(await page.locator('[data-app-error]').count()).toBe(0);
  });
});

describe('pinned files are verified where they are read', () => {
  it('a flipped byte in MemUse, a changed results cell and an HTML data index are all shown', async () => {
    const results = entry(/^assets\/inmind-[^/]*\.csv$/);
    harness.site.setFaults(
      onPath({
        'data/memuse/instances.test.first3.jsonl': { kind: 'flip', offset: 500 },
        [results.url]: { kind: 'replace', from: '92.0', to: '12.0' },
        'data/index.json': { kind: 'html' },
      }),
    );
    const { page } = await freshPage();
    await page.goto(`${harness.site.url}#/mydata`);
    const resultsError = page.locator('[data-app-error]', { hasText: 'Released results' });
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
    await page.goto(`${harness.site.url}#/mydata`);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    const mine = path.join(tmpdir(), `memlens-dead-${process.pid}.jsonl`);
    writeFileSync(mine, '{"question":"kept?"}\n');
    await loadFile(page, mine, `user_memlens_dead_${process.pid}`);
    // Killed while idle: a worker that dies mid-query is noticed when that call times out (120 s).
    expect(await tableCount(page, `user_memlens_dead_${process.pid}`)).toBe(1);
    await expect.poll(() => page.workers().some((w) => w.url().startsWith('blob:'))).toBe(true);
    // DuckDB's worker runs from the checked copy of its script, a blob: URL.
    const duck = page.workers().find((w) => w.url().startsWith('blob:'));
    if (!duck) throw new Error('no DuckDB worker');
    void duck.evaluate(() => self.close()).catch(() => undefined);
    const notice = page.locator('[data-engine-notice]');
    await expect
      .poll(() => notice.innerText().catch(() => ''), { timeout: 60_000 })
      .toMatch(/^DuckDB stopped \(the worker stopped answering\) and was started again/);
    // What the stopped engine held of the reader's was kept in this browser, so it is back.
    expect(await notice.innerText()).toContain(
      `Your tables kept in this browser are back: user_memlens_dead_${process.pid}.`,
    );
    expect(await tableCount(page, `user_memlens_dead_${process.pid}`)).toBe(1);
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    expect(await page.locator('[data-app-error]').count()).toBe(0);
  });

  it('the network cut while the first load runs: the load resumes when the browser is back online', async () => {
    const { page, context } = await freshPage();
    // The data files wait for the cut, so the load is still running when it comes however fast
    // the machine is (a load that ended first would leave nothing to resume).
    let cut = (): void => undefined;
    const offline = new Promise<void>((resolve) => (cut = resolve));
    const dataFiles = /\/data\//;
    await page.route(dataFiles, async (route) => {
      await offline;
      await route.abort('internetdisconnected');
    });
    await page.goto(`${harness.site.url}#/mydata`, { waitUntil: 'commit' });
    await page.waitForSelector('header.topbar');
    await context.setOffline(true);
    cut();
    await page.waitForSelector('[data-app-error]', { timeout: 120_000 });
    const shown = await page.locator('[data-app-error]').first().innerText();
    expect(shown).toMatch(/Failed to fetch|could not start|HTTP|not available/);
    await page.unroute(dataFiles);
    await context.setOffline(false);
    expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
    await expect.poll(() => page.locator('[data-app-error]').count(), { timeout: 30_000 }).toBe(0);
  });
});

/** Peak resident memory (VmHWM) of the browser's renderer processes, in MiB; null where /proc cannot tell. */
async function rendererPeakMiB(): Promise<number | null> {
  const cdp = await (await harness.browser()).newBrowserCDPSession();
  try {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    let peak: number | null = null;
    for (const p of info.processInfo.filter((x) => x.type === 'renderer')) {
      try {
        const status = readFileSync(`/proc/${p.id}/status`, 'utf8');
        const kb = Number(status.match(/VmHWM:\s+(\d+)/)?.[1]);
        if (kb) peak = Math.max(peak ?? 0, kb / 1024);
      } catch {
        // A renderer that just exited.
      }
    }
    return peak;
  } finally {
    await cdp.detach();
  }
}

async function openMyData(): Promise<{ page: Page; watch: PageWatch; context: BrowserContext }> {
  const opened = await freshPage();
  await opened.page.goto(`${harness.site.url}#/mydata`);
  await tableCount(opened.page, 'turns');
  return opened;
}

async function loadFile(page: Page, file: string, table: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(`[data-load-notice]:has-text("into ${table}.")`, { timeout: 120_000 });
}

describe('no input can exhaust the tab', () => {
  const dir = path.join(tmpdir(), `memlens-faults-${process.pid}`);

  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'clash.jsonl'),
      `${JSON.stringify({ 'a.b': 'literal', a: { b: 'nested' }, question: 'q?' })}\n`,
    );
    writeFileSync(path.join(dir, 'good.jsonl'), '{"q":"a"}\n{"q":"b"}\n{"q":"c"}\n');
    writeFileSync(
      path.join(dir, 'dupes.jsonl'),
      [
        '{"task_id": 1, "question": "where?", "question": "when?"}',
        '{"task_id": 2, "question": "who?"}',
        '{"task_id": 1, "question": "why?"}',
        '{"task_id": "seven", "question": "how?"}',
        '',
      ].join('\n'),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keys "a.b" beside {"a":{"b":…}}: the mapping appears with both, and says why', async () => {
    const { page, watch } = await openMyData();
    await loadFile(page, path.join(dir, 'good.jsonl'), 'user_good');
    await page.locator('input[type="file"]').setInputFiles(path.join(dir, 'clash.jsonl'));
    await page.waitForSelector('#mapping-title:has-text("clash.jsonl")');
    expect(await page.locator('[data-field-clash]').innerText()).toContain(
      'a.b: a key with a dot and a nested field share this name',
    );
    const labels = await page.locator('table.fields tbody tr td:first-child').allInnerTexts();
    expect(labels).toEqual(['"a.b"', 'a', 'a.b', 'question']);
    expect(watch.consoleErrors).toEqual([]);
    expect(await tableCount(page, 'user_good')).toBe(3);
  });

  it('repeated ids, a repeated key and a type change are listed before loading', async () => {
    const { page } = await openMyData();
    await loadFile(page, path.join(dir, 'good.jsonl'), 'user_good');
    await page.locator('input[type="file"]').setInputFiles(path.join(dir, 'dupes.jsonl'));
    await page.waitForSelector('#mapping-title:has-text("dupes.jsonl")');
    const notes = await page.locator('[data-mapping-notes] li').allInnerTexts();
    expect(notes).toEqual([
      'task_id: 1 value repeated across 2 records of the 4 read (the first, 1, on lines 1 and 3); all are loaded, so the same task_id names more than one row.',
      '1 key repeated within one object ("question" on line 1): only the last value of each is loaded, as JSON.parse does.',
      'task_id: number in 3 records, string in 1 (first on line 4); kept as they are in the fields column.',
    ]);
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    await page.waitForSelector('[data-load-notice]:has-text("into user_dupes.")', {
      timeout: 120_000,
    });
    expect(await tableCount(page, 'user_dupes')).toBe(4);
    expect(await tableCount(page, 'user_good')).toBe(3);
  });

  it('an endless same-origin URL stops at the cap with a message, the bar moving', async () => {
    harness.site.setFaults((rel) => (rel === 'endless.jsonl' ? { kind: 'endless' } : null));
    const { page } = await openMyData();
    await loadFile(page, path.join(dir, 'good.jsonl'), 'user_good');
    await page.getByLabel('Or fetch a URL').fill('endless.jsonl');
    await page.getByRole('button', { name: 'Fetch' }).click();
    const bar = page.locator('.progress progress');
    await expect
      .poll(async () => Number(await bar.getAttribute('value')), { timeout: 60_000 })
      .toBeGreaterThan(0.01);
    const error = page.locator('[data-load-error]');
    await error.waitFor({ timeout: 180_000 });
    expect(await error.innerText()).toBe(
      `${harness.site.url}endless.jsonl: stopped after 256.0 MiB; files fetched by URL are limited to 256.0 MiB: download it and pick the file instead`,
    );
    expect(await tableCount(page, 'user_good')).toBe(3);
    const peak = await rendererPeakMiB();
    console.info(`endless URL: stopped at 256 MiB, renderer peak ${peak?.toFixed(0) ?? 'n/a'} MiB`);
  });
});

describe('nothing changes silently', () => {
  it('a second file with the same table name gets a new name; replacing needs a tick', async () => {
    const dir = path.join(tmpdir(), `memlens-clash-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const first = path.join(dir, 'good.jsonl');
    writeFileSync(first, '{"q":"a"}\n{"q":"b"}\n{"q":"c"}\n');
    const second = path.join(dir, 'sub', 'good.jsonl');
    mkdirSync(path.dirname(second), { recursive: true });
    writeFileSync(second, '{"q":"only"}\n');
    try {
      const { page } = await openMyData();
      await loadFile(page, first, 'user_good');
      await page.locator('input[type="file"]').setInputFiles(second);
      await page.waitForSelector('#mapping-title:has-text("good.jsonl")');
      const name = page.getByLabel('Table name');
      // The free name comes from DuckDB's table list, a moment after the mapping shows.
      await expect.poll(() => name.inputValue(), { timeout: 30_000 }).toBe('user_good_2');
      await name.fill('user_good');
      await expect
        .poll(() => page.locator('.mapping .problem').innerText(), { timeout: 30_000 })
        .toBe('user_good is already loaded: tick "Replace it" or choose another name.');
      expect(await page.getByRole('button', { name: 'Load into DuckDB' }).isDisabled()).toBe(true);
      await name.fill('user_good_2');
      await page.getByRole('button', { name: 'Load into DuckDB' }).click();
      await page.waitForSelector('[data-load-notice]:has-text("into user_good_2.")');
      expect(await tableCount(page, 'user_good')).toBe(3);
      expect(await tableCount(page, 'user_good_2')).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('URL parameters are values, never SQL', () => {
  it('a NUL in #/inmind?q= is a bound value, never a DuckDB parser error', async () => {
    const { page, watch } = await openMyData();
    // Search is by words: a NUL between two words separates them, like a space.
    await page.evaluate(() => (location.hash = '#/inmind?q=macaron%00almond'));
    await page.waitForSelector('main h1');
    await expect
      .poll(() => page.locator('#task-count').innerText(), { timeout: 30_000 })
      .toMatch(/^[1-9]\d* of 125 tasks$/);
    await page.evaluate(() => (location.hash = '#/inmind?q=zzz%00qqq'));
    await expect
      .poll(() => page.locator('#task-count').innerText(), { timeout: 30_000 })
      .toBe('0 of 125 tasks');
    expect(await page.locator('main').innerText()).not.toMatch(/unterminated|Parser Error/i);
    await page.evaluate(() => (location.hash = '#/inmind?q=deadline'));
    await expect.poll(() => page.locator('main .error').count()).toBe(0);
    expect(watch.consoleErrors).toEqual([]);
  });

  it('random strings in every parameter of every page break nothing', async () => {
    const { page, watch } = await openMyData();
    const ids = (
      await page.$$eval('nav[aria-label="Pages"] a', (as) => as.map((a) => a.getAttribute('href')))
    ).map((h) => (h ?? '').replace(/^#\//, ''));
    const names = ['q', 'sort', 'dir', 'task', 'emb', 'dataset', 'conv', 'here', 'qds', 'style'];
    names.push('cat', 'search', 'turn', 'query', 'table', 'ts', 'k', 'retriever', 'benchmark');
    let seed = 15;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['\u0000', "'", '"', '\\', '%', '_', '<img src=x onerror=alert(1)>', '🦆'];
    pieces.push('__proto__', '1e400', '-1', 'NaN', '\n', ';DROP TABLE turns;--', 'x'.repeat(3000));
    const value = () =>
      Array.from(
        { length: 1 + Math.floor(rand() * 4) },
        () => pieces[Math.floor(rand() * pieces.length)],
      ).join('');
    let tried = 0;
    for (const id of ids) {
      for (let round = 0; round < 4; round++) {
        const query = names.map((n) => `${n}=${encodeURIComponent(value())}`).join('&');
        await page.evaluate((hash) => (location.hash = hash), `#/${id}?${query}`);
        await page.waitForSelector('main h1', { timeout: 30_000 });
        await page.waitForTimeout(250);
        tried++;
        expect(await page.locator('main').innerText(), `${id} ${query.slice(0, 200)}`).not.toMatch(
          /unterminated|Parser Error|syntax error/i,
        );
      }
    }
    expect(tried).toBe(ids.length * 4);
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
    ).toBeUndefined();
    expect(await page.locator('main img[src="x"]').count()).toBe(0);
    expect(watch.consoleErrors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    await page.evaluate(() => (location.hash = '#/mydata'));
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);
  });
});

describe('a strict Content-Security-Policy', () => {
  it('is set by a meta tag, and no page violates it (charts drawn through vega-interpreter)', async () => {
    const { page, context } = await freshPage();
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    await page.goto(`${harness.site.url}#/mydata`);
    await tableCount(page, 'turns');
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    // The hash is the import map's (every chunk's sha384, lib/offline/sri.ts).
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
    expect(csp).not.toMatch(/(^|\s)'unsafe-eval'/);
    const ids = (
      await page.$$eval('nav[aria-label="Pages"] a', (as) => as.map((a) => a.getAttribute('href')))
    ).map((h) => (h ?? '').replace(/^#\//, ''));
    let charts = 0;
    for (const id of ids) {
      await page.evaluate((hash) => (location.hash = hash), `#/${id}`);
      await page.waitForSelector('main h1');
      await chartsSettled(page);
      charts += await page.locator('[data-chart] .chart-canvas[data-rendered="true"]').count();
    }
    expect(charts).toBeGreaterThan(5);
    expect(await page.locator('[data-chart] .error').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
  });
});

describe('the embedder and the browser storage', () => {
  const EMBED = /^Embed the \d+ LME-s background turns$/;

  async function embedReady(page: Page): Promise<void> {
    await page.getByRole('button', { name: EMBED }).and(page.locator(':enabled')).waitFor({
      timeout: 180_000,
    });
  }

  it('the embedding worker closed mid-run: the run fails with a message, a retry starts a new one', async () => {
    const { page } = await freshPage();
    await page.goto(`${harness.site.url}#/embeddings?model=tiny-bert&device=wasm`);
    await embedReady(page);
    // tiny-bert embeds 486 turns in about a second: the worker is closed as soon as it exists.
    // The worker runs from a blob: URL of its checked bytes: it is known by its name.
    const started = page.waitForEvent('worker', {
      predicate: async (w) =>
        (await w.evaluate(() => self.name).catch(() => '')).startsWith('memlens-embed'),
      timeout: 60_000,
    });
    await page.getByRole('button', { name: EMBED }).click();
    const worker = await started;
    void worker.evaluate(() => self.close()).catch(() => undefined);
    const alert = page.locator('.page [role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.innerText()).toContain('the embedding worker stopped (closed or crashed)');
    expect(await page.getByRole('button', { name: EMBED }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: EMBED }).click();
    await page.waitForSelector('[data-phase="done"]', { timeout: 180_000 });
    expect(await page.locator('.page .error').count()).toBe(0);
  });

  it('a 20 kB storage quota: precache and vector cache say "browser storage full", the run completes', async () => {
    const { page, context } = await freshPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: harness.site.origin,
      quotaSize: 20 * 1024,
    });
    await page.goto(`${harness.site.url}#/embeddings?model=tiny-bert&device=wasm`);
    expect(await offlineError(page)).toContain('browser storage full');
    await embedReady(page);
    await page.getByRole('button', { name: EMBED }).click();
    await page.waitForSelector('[data-phase="done"]', { timeout: 180_000 });
    expect(await page.locator('[data-cache-notice]').innerText()).toContain(
      'browser storage full: embedding vectors could not be saved',
    );
    expect(await page.locator('[data-embed-counts]').getAttribute('data-done')).toBe('486');
  });
});

/** A copy made of hard links: instant, and replacing a file in it spares the original. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else linkSync(source, target);
  }
}

describe('an update never mixes old data with new code', () => {
  it('a rebuild with a changed data/index.json, reloaded under the old worker, reads the new file', async () => {
    const { page, watch } = await freshPage();
    await page.goto(`${harness.site.url}#/mydata`);
    await page.waitForSelector('[data-offline-state="ready"]', { timeout: 180_000 });
    expect(await tableCount(page, 'inmind_tasks')).toBe(125);

    const work = mkdtempSync(path.join(tmpdir(), 'memlens-rebuild-'));
    try {
      const publicB = path.join(work, 'public');
      linkTree(path.join(repoRoot, 'public'), publicB);
      const indexPath = path.join(publicB, 'data/index.json');
      const index: unknown = JSON.parse(readFileSync(indexPath, 'utf8'));
      rmSync(indexPath);
      writeFileSync(indexPath, `${JSON.stringify(index, null, 4)}\n`);
      const outB = path.join(work, 'dist');
      await build({
        root: repoRoot,
        configFile: path.join(repoRoot, 'vite.config.ts'),
        base: E2E_BASE,
        publicDir: publicB,
        logLevel: 'warn',
        build: { outDir: outB, emptyOutDir: true },
      });
      const manifestB: PrecacheManifest = JSON.parse(
        readFileSync(path.join(outB, 'precache-manifest.json'), 'utf8'),
      );
      const indexA = manifest.precache.find((e) => e.url === 'data/index.json');
      const indexB = manifestB.precache.find((e) => e.url === 'data/index.json');
      expect(indexB?.sha256).not.toBe(indexA?.sha256);
      expect(manifestB.version).not.toBe(manifest.version);

      harness.site.setRoot(outB);
      await page.reload();
      expect(await tableCount(page, 'inmind_tasks')).toBe(125);
      expect(await tableCount(page, 'turns')).toBeGreaterThan(5000);
      expect(await page.locator('[data-load-warning]').count()).toBe(0);
      expect(await page.locator('[data-app-error]').count()).toBe(0);
      // The old worker still holds the old index; the new page asked for the new one by hash.
      const held = await page.evaluate(async (version) => {
        const cache = await caches.open(`memlens-precache-${version}`);
        const hit = await cache.match(new URL('data/index.json', document.baseURI).href);
        return hit ? (await hit.text()).length : -1;
      }, manifest.version);
      expect(held).toBe(indexA?.bytes);
      expect(watch.urls).toContain(`${harness.site.url}data/index.json?sha256=${indexB?.sha256}`);
    } finally {
      harness.site.setRoot(root);
      rmSync(work, { recursive: true, force: true });
    }
  });
});
