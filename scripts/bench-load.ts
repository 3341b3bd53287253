/**
 * Load benchmark: builds with base /memlens/, serves it on 127.0.0.1 (hashed assets cached as
 * immutable), and records three marks per load of `#/inmind` in headless Chromium:
 * navigation → first rendered chart, → DuckDB ready, → fully interactive (tables loaded, SQL
 * features shown). Cold: a fresh context each run (empty HTTP cache). Warm: one context, loaded
 * once, then reloaded (HTTP cache and V8's wasm code cache). Service workers are blocked so that
 * warm means the HTTP cache, not the offline precache. Prints the initial JS gzip size too, and
 * what each cold load fetched (requests, bytes, the data files) in its first seconds.
 * Usage: npm run bench:load [-- --runs 5] [-- --route inmind] [-- --window 10]
 */
import { loadavg } from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { launchChromium } from './lib/chromium.ts';
import { initialJs, readBudgets } from './lib/load-budget.ts';
import { medianLine, medianOf as median } from './lib/bench-report.ts';
import {
  DUCKDB_READY_MARK,
  FIRST_CHART_MARK,
  INTERACTIVE_MARK,
} from '../src/lib/app/load-marks.ts';
import { DUCKDB_START_PHASES, duckdbStartMark } from '../src/lib/db/engine.ts';
import { checkCommandLine } from './lib/cli.ts';

checkCommandLine({
  usage: `Usage: npm run bench:load -- [options]

Builds the site under /memlens/, serves it on 127.0.0.1 and times loads of a route in headless
Chromium, cold and warm: navigation → first chart, → DuckDB ready, → interactive; prints each
median beside its goal, with the machine's load, and the initial JS (gzip).

Options:
  --runs N      loads of each kind (default 5)
  --route R     the route to load (default inmind)
  --window S    cold loads: count what the page fetched in its first S seconds (default 10)
  -h, --help    print this and exit`,
  values: ['--runs', '--route', '--window'],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Math.max(1, Number(arg('runs')) || 5);
const route = arg('route') ?? 'inmind';
const windowMs = Math.max(0, Number(arg('window') ?? 10) || 0) * 1000;
/** Issue 23's goals, ms; null where none was set. */
const GOAL_MS: Record<
  'cold' | 'warm',
  Record<Exclude<keyof LoadTimes, 'duckdbPhases'>, number | null>
> = {
  cold: { firstChart: 800, duckdbReady: 1500, interactive: null },
  warm: { firstChart: 500, duckdbReady: 800, interactive: null },
};

interface LoadTimes {
  firstChart: number;
  duckdbReady: number;
  interactive: number;
  /** Navigation → each of DUCKDB_START_PHASES, in its order (NaN where the page set none). */
  duckdbPhases: number[];
}

const FIGURES: { key: Exclude<keyof LoadTimes, 'duckdbPhases'>; label: string }[] = [
  { key: 'firstChart', label: '→ first chart' },
  { key: 'duckdbReady', label: '→ DuckDB ready' },
  { key: 'interactive', label: '→ fully interactive' },
];

async function timedLoad(page: Page, url: string): Promise<LoadTimes> {
  await page.goto(url);
  await page.waitForFunction(
    (name) => performance.getEntriesByName(name, 'mark').length > 0,
    INTERACTIVE_MARK,
    {
      timeout: 120_000,
      polling: 50,
    },
  );
  const marks = await page.evaluate(
    (names) => names.map((n) => performance.getEntriesByName(n, 'mark')[0]?.startTime ?? NaN),
    [
      FIRST_CHART_MARK,
      DUCKDB_READY_MARK,
      INTERACTIVE_MARK,
      ...DUCKDB_START_PHASES.map(duckdbStartMark),
    ],
  );
  const [firstChart, duckdbReady, interactive, ...duckdbPhases] = marks;
  return { firstChart, duckdbReady, interactive, duckdbPhases };
}

/** What one load fetched (every frame and worker) in its first `windowMs`. */
interface Fetched {
  requests: number;
  /** Response bodies as sent (the bench's server does not compress). */
  bytes: number;
  /** Site paths under data/ among them. */
  dataFiles: string[];
}

/** Records the requests of `context` that end within `windowMs` of the call. */
function recordFetches(context: BrowserContext): () => Promise<Fetched> {
  const started = Date.now();
  const done: Promise<{ path: string; bytes: number }>[] = [];
  context.on('requestfinished', (req) => {
    if (Date.now() - started > windowMs) return;
    const path = new URL(req.url()).pathname;
    done.push(req.sizes().then((s) => ({ path, bytes: s.responseBodySize })));
  });
  return async () => {
    const left = windowMs - (Date.now() - started);
    // A measuring window, not a wait for a state: what the page fetches in its first seconds.
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    const all = await Promise.all(done);
    return {
      requests: all.length,
      bytes: all.reduce((sum, f) => sum + f.bytes, 0),
      dataFiles: all.flatMap((f) => {
        const at = f.path.indexOf('/data/');
        return at >= 0 ? [f.path.slice(at + 1)] : [];
      }),
    };
  };
}

async function coldRuns(
  browser: Browser,
  url: string,
): Promise<{ times: LoadTimes[]; fetched: Fetched[] }> {
  const times: LoadTimes[] = [];
  const fetched: Fetched[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const fetches = recordFetches(context);
    times.push(await timedLoad(await context.newPage(), url));
    fetched.push(await fetches());
    await context.close();
  }
  return { times, fetched };
}

function reportFetched(fetched: readonly Fetched[]): void {
  const kib = (b: number) => (b / 1024).toFixed(0);
  console.log(`
cold, fetched in the first ${windowMs / 1000} s (${fetched.length} runs)`);
  console.log(
    `  requests median ${median(fetched.map((f) => f.requests))}   runs ${fetched.map((f) => f.requests).join(', ')}`,
  );
  console.log(
    `  KiB      median ${kib(median(fetched.map((f) => f.bytes)))}   runs ${fetched.map((f) => kib(f.bytes)).join(', ')}`,
  );
  const files = [...new Set(fetched.flatMap((f) => f.dataFiles))].sort();
  console.log(`  data files: ${files.join(', ') || 'none'}`);
}

async function warmRuns(browser: Browser, url: string): Promise<LoadTimes[]> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await timedLoad(page, url);
  const out: LoadTimes[] = [];
  for (let i = 0; i < runs; i++) {
    await page.goto('about:blank');
    out.push(await timedLoad(page, url));
  }
  await context.close();
  return out;
}

function report(kind: 'cold' | 'warm', times: LoadTimes[]): void {
  console.log(`\n${kind} (${times.length} runs, ms)`);
  for (const { key, label } of FIGURES) {
    console.log(
      medianLine(
        label,
        20,
        times.map((t) => t[key]),
        GOAL_MS[kind][key],
      ),
    );
  }
  const lead = times.map((t) => t.duckdbReady - t.firstChart);
  console.log(`  first chart ahead of DuckDB by (median) ${median(lead).toFixed(0)} ms`);
  const phases = DUCKDB_START_PHASES.map(
    (p, i) => `${p} ${median(times.map((t) => t.duckdbPhases[i])).toFixed(0)}`,
  );
  console.log(`  DuckDB's start, navigation → (medians, ms): ${phases.join(', ')}`);
}

const loadBefore = loadavg();
const root = await buildSite();
const server = await serveStatic({ root, base: '/memlens/', cacheAssets: true });
const browser = await launchChromium();
const url = `${server.url}#/${route}`;
let cold: { times: LoadTimes[]; fetched: Fetched[] };
let warm: LoadTimes[];
try {
  cold = await coldRuns(browser, url);
  warm = await warmRuns(browser, url);
} finally {
  await browser.close();
  await server.close();
}
const loadAfter = loadavg();
const js = await initialJs(root);
const budgets = await readBudgets();
const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
console.log(`page #/${route}; load average before ${fmt(loadBefore)}, after ${fmt(loadAfter)}`);
report('cold', cold.times);
report('warm', warm);
reportFetched(cold.fetched);
console.log(
  `\ninitial JS: ${js.files.join(', ')}: ${(js.raw / 1024).toFixed(1)} KiB raw, ${(js.gzip / 1024).toFixed(1)} KiB gzip` +
    ` (budget ${budgets.initialJsGzipKiB} KiB in budgets.json; checked by test/e2e/load-budgets.test.ts)`,
);
