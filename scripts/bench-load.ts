/**
 * Load benchmark: builds with base /memlens/, serves it on 127.0.0.1 (hashed assets cached as
 * immutable), and records three marks per load of `#/inmind` in headless Chromium:
 * navigation → first rendered chart, → DuckDB ready, → fully interactive (tables loaded, SQL
 * features shown). Cold: a fresh context each run (empty HTTP cache). Warm: one context, loaded
 * once, then reloaded (HTTP cache and V8's wasm code cache). Service workers are blocked so that
 * warm means the HTTP cache, not the offline precache. Prints the initial JS gzip size too.
 * Usage: npm run bench:load [-- --runs 5] [-- --route inmind]
 */
import { loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { buildSite } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { launchChromium } from './lib/chromium.ts';
import { initialJs, readBudgets } from './lib/load-budget.ts';
import { median as medianOrNull } from '../src/lib/analysis/stats.ts';
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
  -h, --help    print this and exit`,
  values: ['--runs', '--route'],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Math.max(1, Number(arg('runs')) || 5);
const route = arg('route') ?? 'inmind';
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

/** Runs are never empty here; NaN would show if they were. */
const median = (xs: readonly number[]): number => medianOrNull(xs) ?? Number.NaN;

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

async function coldRuns(browser: Browser, url: string): Promise<LoadTimes[]> {
  const out: LoadTimes[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    out.push(await timedLoad(await context.newPage(), url));
    await context.close();
  }
  return out;
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
    const xs = times.map((t) => t[key]);
    const m = median(xs);
    const g = GOAL_MS[kind][key];
    const goal =
      g === null
        ? '  (no goal)'
        : `  goal ${g} ms, ratio ${(m / g).toFixed(2)} ${m <= g ? 'met' : 'NOT met'}`;
    console.log(
      `  ${label.padEnd(20)} median ${m.toFixed(0).padStart(5)}   runs ${xs.map((x) => x.toFixed(0)).join(', ')}${goal}`,
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
let cold: LoadTimes[];
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
report('cold', cold);
report('warm', warm);
console.log(
  `\ninitial JS: ${js.files.join(', ')}: ${(js.raw / 1024).toFixed(1)} KiB raw, ${(js.gzip / 1024).toFixed(1)} KiB gzip` +
    ` (budget ${budgets.initialJsGzipKiB} KiB in budgets.json; checked by test/e2e/load-budgets.test.ts)`,
);
