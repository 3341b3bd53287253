/**
 * Lighthouse on the Pages-like build: builds the site as GitHub Pages serves it (`/memlens/`, the
 * service worker's cross-origin isolation, production code), serves it gzipped from a plain static
 * server on 127.0.0.1, and runs Lighthouse's performance audit on each route with the mobile
 * default (slow 4G, 4× CPU) and the desktop preset, in the system Chromium. Prints each median
 * beside the goal of "A reader's first visit", with the machine's load (Lighthouse simulates the
 * network and CPU, so its figures move less with load than a stopwatch's, but they still move).
 * Usage: npm run bench:lighthouse [-- --runs 3] [-- --routes home,inmind] [-- --site DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { E2E_BASE, buildSiteTo } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { chromiumPath } from './lib/chromium.ts';
import { checkCommandLine } from './lib/cli.ts';
import { medianOf } from './lib/bench-report.ts';

checkCommandLine({
  usage: `Usage: npm run bench:lighthouse -- [options]

Builds the Pages-like site (MEMLENS_BASE=/memlens/ MEMLENS_COI=sw, production code), serves it
gzipped on 127.0.0.1 and runs Lighthouse's performance audit on each route, mobile (default
throttling) and desktop (preset); prints the medians beside the goals.

Options:
  --runs N        audits of each route and preset (default 3)
  --routes LIST   comma-separated routes (default home,inmind,reproduce,playground,console)
  --site DIR      a build to serve instead of building one (built with MEMLENS_BASE=/memlens/)
  -h, --help      print this and exit`,
  values: ['--runs', '--routes', '--site'],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Number(arg('runs') ?? 3);
const routes = (arg('routes') ?? 'home,inmind,reproduce,playground,console').split(',');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');

interface Goal {
  performance: number;
  lcpMs?: number;
  tbtMs?: number;
  cls: number;
}

const PRESETS = {
  mobile: { config: undefined, goal: { performance: 90, lcpMs: 2500, tbtMs: 200, cls: 0.05 } },
  desktop: { config: desktopConfig, goal: { performance: 98, cls: 0.05 } },
} as const satisfies Record<string, { config: unknown; goal: Goal }>;

interface Audit {
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  ttiMs: number;
}

function numeric(lhr: { audits: Record<string, { numericValue?: number }> }, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id}`);
  return value;
}

async function audit(url: string, port: number, preset: keyof typeof PRESETS): Promise<Audit> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    PRESETS[preset].config,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    ttiMs: numeric(lhr, 'interactive'),
  };
}

function verdict(value: number, goal: number | undefined, higherIsBetter = false): string {
  if (goal === undefined) return '';
  return (higherIsBetter ? value >= goal : value <= goal) ? ' ✓' : ' ✗';
}

/** The 1- and 5-minute load averages as /proc/loadavg has them now: TBT and performance move with it. */
const loadNow = (): string => {
  const [one, five] = os.loadavg();
  return `${one.toFixed(2)} ${five.toFixed(2)}`;
};

function row(route: string, preset: keyof typeof PRESETS, audits: Audit[]): string {
  const goal: Goal = PRESETS[preset].goal;
  const m = (pick: (a: Audit) => number) => medianOf(audits.map(pick));
  const perf = m((a) => a.performance);
  const lcp = m((a) => a.lcpMs);
  const cls = m((a) => a.cls);
  const tbt = m((a) => a.tbtMs);
  const tti = m((a) => a.ttiMs);
  return [
    route.padEnd(11),
    preset.padEnd(8),
    `${perf} (≥ ${goal.performance})${verdict(perf, goal.performance, true)}`.padEnd(14),
    `${(lcp / 1000).toFixed(1)} s${goal.lcpMs ? ` (≤ ${goal.lcpMs / 1000})` : ''}${verdict(lcp, goal.lcpMs)}`.padEnd(
      18,
    ),
    `${cls.toFixed(3)} (≤ ${goal.cls})${verdict(cls, goal.cls)}`.padEnd(18),
    `${Math.round(tbt)} ms${goal.tbtMs ? ` (≤ ${goal.tbtMs})` : ''}${verdict(tbt, goal.tbtMs)}`.padEnd(
      18,
    ),
    `${(tti / 1000).toFixed(1)} s`.padEnd(7),
    loadNow(),
  ].join(' ');
}

async function main(): Promise<void> {
  let site = arg('site');
  let scratch: string | null = null;
  if (!site) {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'memlens-lighthouse-'));
    process.env.MEMLENS_COI = 'sw';
    site = await buildSiteTo(path.join(scratch, 'site'), { testHooks: false });
  }
  const server = await serveStatic({ root: site, base: E2E_BASE, gzip: true, cacheAssets: true });
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const startLoad = os.loadavg()[0];
  try {
    console.log(`Lighthouse on ${server.url} (${runs} audits each; medians; goal in brackets)`);
    console.log(
      'route       preset   performance    LCP                CLS                TBT                TTI     load 1/5 min',
    );
    for (const route of routes) {
      for (const preset of ['mobile', 'desktop'] as const) {
        const audits: Audit[] = [];
        for (let i = 0; i < runs; i++) {
          audits.push(await audit(`${server.url}#/${route}`, chrome.port, preset));
        }
        console.log(row(route, preset, audits));
      }
    }
    console.log(
      `load average (1 min) ${startLoad.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end, on ${os.cpus().length} cores; each row's load is taken after its audits`,
    );
  } finally {
    chrome.kill();
    await server.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
