/**
 * Cost curve: exact top-k (k = 50) with target ranks, recall@1/10/50 and mean similarities for
 * synthetic corpora of 10^3..10^6 unit vectors × 384 dims and 1,000 queries, in Node (one child
 * process per size, so each peak RSS is its own) and in headless Chromium (a fresh context per
 * size; peak RSS of its renderer from /proc). Prints a markdown table and writes a log-log chart.
 * Usage: npm run bench:scale [-- --sizes 1000,10000 --queries 1000 --dim 384 --only node|chromium
 *        --kernel auto|js|simd|int16 --also-kernel KERNEL --also-max N --verify-max N
 *        --chart FILE --save-rows FILE.json | --chart-from FILE.json]
 * --chart-from redraws the chart from rows saved by --save-rows, without measuring.
 * Every size up to --verify-max (default 10^5) is also checked, untimed, against the float32
 * kernel's search: identical top-k indices, scores and target ranks.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { launchChromium } from './lib/chromium.ts';
import { serveStatic } from './lib/static-server.ts';
import { bundleBrowserEntry as bundleEntry, repoRoot } from './lib/site-build.ts';
import { cpuMsOfAll, rendererPeaks } from './lib/proc-stats.ts';
import {
  matchesFloat32,
  prepareScalePoint,
  searchScalePoint,
  type ScaleParams,
  type ScalePoint,
} from './lib/scale-run.ts';
import type { BrowserScalePoint } from './lib/scale-browser-entry.ts';
import type { SearchKernel } from '../src/lib/analysis/dense-search.ts';
import { checkCommandLine } from './lib/cli.ts';

checkCommandLine({
  usage: `Usage: npm run bench:scale -- [options]

Cost curve of exact top-k over synthetic corpora of 10^3..10^6 unit vectors, in Node and in
headless Chromium; prints a markdown table and can write a log-log chart.

Options:
  --sizes N,N          corpus sizes (default 1000,10000,100000,1000000)
  --queries N          queries (default 1000)
  --dim D              dimensions (default 384)
  --only node|chromium one runtime
  --kernel K           auto | js | simd | int16
  --also-kernel K      a second kernel beside it
  --also-max N         largest size for the second kernel
  --verify-max N       check sizes up to N against float32 (default 100000)
  --chart FILE         write the chart
  --save-rows FILE     save the measured rows as JSON
  --chart-from FILE    redraw the chart from saved rows, without measuring
  --node-one N         (internal) measure one Node size in this process
  -h, --help           print this and exit`,
  values: [
    '--sizes',
    '--queries',
    '--dim',
    '--only',
    '--kernel',
    '--also-kernel',
    '--also-max',
    '--verify-max',
    '--chart',
    '--save-rows',
    '--chart-from',
    '--node-one',
  ],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const sizes = (arg('sizes') ?? '1000,10000,100000,1000000').split(',').map(Number);
const nq = Number(arg('queries') ?? 1000);
const dim = Number(arg('dim') ?? 384);
const only = arg('only');
const kernelOf = (name: string | undefined): SearchKernel =>
  name === 'js' || name === 'simd' || name === 'int16' ? name : 'auto';
const kernel = kernelOf(arg('kernel'));
/** `--also-kernel simd --also-max 100000`: the same sizes up to also-max on a second kernel. */
const alsoKernel = arg('also-kernel') === undefined ? null : kernelOf(arg('also-kernel'));
const alsoMax = Number(arg('also-max') ?? 100_000);
const verifyMax = Number(arg('verify-max') ?? 100_000);
const K = 50;
const CHART = path.resolve(repoRoot, arg('chart') ?? 'docs/performance-scale.svg');

interface Row extends ScalePoint {
  runtime: 'node' | 'chromium';
  peakRssBytes: number;
  /** CPU time of the search (user + system): what it costs on a core of its own. */
  cpuMs: number;
  longestTaskMs: number | null;
  /** Same top-k, scores and ranks as the float32 kernel; null when not checked. */
  matchesFloat32: boolean | null;
}

/** `--node-one COUNT`: this process is the child that measures one Node point. */
async function nodeChild(count: number): Promise<void> {
  const prepared = prepareScalePoint({ count, dim, queries: nq, k: K, kernel });
  const before = process.cpuUsage();
  const { point, result } = await searchScalePoint(prepared);
  const cpu = process.cpuUsage(before);
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const check = count <= verifyMax && point.ran === 'int16';
  const same = check ? await matchesFloat32(prepared, result) : null;
  const row = { ...point, peakRssBytes, cpuMs, matchesFloat32: same };
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

async function nodePoint(count: number, kernel: SearchKernel): Promise<Row> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--max-old-space-size=8192',
      '--import',
      'tsx',
      path.join(repoRoot, 'scripts/bench-scale.ts'),
      '--node-one',
      String(count),
      '--queries',
      String(nq),
      '--dim',
      String(dim),
      '--kernel',
      kernel,
      '--verify-max',
      String(verifyMax),
    ],
    { cwd: repoRoot, maxBuffer: 1 << 20 },
  );
  const point = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ScalePoint & {
    peakRssBytes: number;
    cpuMs: number;
    matchesFloat32: boolean | null;
  };
  return { ...point, runtime: 'node', longestTaskMs: null };
}

async function bundleBrowserEntry(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'memlens-scale-'));
  await bundleEntry({
    entry: 'scripts/lib/scale-browser-entry.ts',
    dir,
    fileName: 'scale.js',
  });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>scale</title><script type="module" src="./scale.js"></script>',
  );
  return dir;
}

async function chromiumPoints(counts: number[], kernel: SearchKernel): Promise<Row[]> {
  const dir = await bundleBrowserEntry();
  const server = await serveStatic({ root: dir, base: '/scale/' });
  const browser = await launchChromium();
  const rows: Row[] = [];
  try {
    for (const count of counts) {
      const before = new Set((await rendererPeaks()).keys());
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => 'memlensScale' in globalThis);
      const params: ScaleParams = { count, dim, queries: nq, k: K, kernel };
      // The callbacks run in the page, where the bundle set globalThis.memlensScale.
      await page.evaluate((p) => globalThis.memlensScale?.prepare(p), params);
      const renderers = [...(await rendererPeaks()).keys()].filter((pid) => !before.has(pid));
      const cpu0 = await cpuMsOfAll(renderers);
      const point: BrowserScalePoint | undefined = await page.evaluate(() =>
        globalThis.memlensScale?.search(),
      );
      if (!point) throw new Error('the scale bundle did not load in the page');
      const cpuMs = (await cpuMsOfAll(renderers)) - cpu0;
      const same =
        count <= verifyMax && point.ran === 'int16'
          ? await page.evaluate(() => globalThis.memlensScale?.verify())
          : await page.evaluate(() => globalThis.memlensScale?.release());
      const peaks = [...(await rendererPeaks()).entries()].filter(([pid]) => !before.has(pid));
      const peakRssBytes = Math.max(0, ...peaks.map(([, b]) => b));
      rows.push({
        ...point,
        runtime: 'chromium',
        peakRssBytes,
        cpuMs,
        matchesFloat32: typeof same === 'boolean' ? same : null,
      });
      console.error(`chromium ${count} ${point.ran}: ${(point.searchMs / 1000).toFixed(2)} s`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

const mib = (b: number) => (b / 2 ** 20).toFixed(0);

function table(rows: Row[]): string {
  const lines = [
    '| runtime | kernel | memories | storage | matrix MiB | search s (wall) | CPU s | peak RSS MiB | longest slice ms | longest task > 50 ms | rescored / query | = float32 | recall@1 | recall@10 | recall@50 | mean sim target / all |',
    '| --- | --- | --: | --- | --: | --: | --: | --: | --: | --- | --: | --- | --: | --: | --: | --- |',
  ];
  for (const r of rows) {
    const task =
      r.longestTaskMs === null
        ? '–'
        : r.longestTaskMs > 0
          ? `${r.longestTaskMs.toFixed(0)} ms`
          : 'none';
    lines.push(
      `| ${r.runtime} | ${r.ran} | ${r.count.toLocaleString('en')} | ${r.storage} | ${mib(r.matrixBytes)} | ${(r.searchMs / 1000).toFixed(2)} | ${(r.cpuMs / 1000).toFixed(2)} | ${mib(r.peakRssBytes)} | ${r.longestSliceMs.toFixed(0)} | ${task} | ${r.rescoredPerQuery === null ? '–' : r.rescoredPerQuery.toFixed(0)} | ${r.matchesFloat32 === null ? '–' : r.matchesFloat32 ? 'identical' : '**differs**'} | ${r.recallAt1.toFixed(3)} | ${r.recallAt10.toFixed(3)} | ${r.recallAtK.toFixed(3)} | ${r.meanTargetScore.toFixed(3)} / ${r.meanScore.toFixed(3)} |`,
    );
  }
  return lines.join('\n');
}

function chartSpec(rows: Row[]): TopLevelSpec {
  const data = rows.flatMap((r) => {
    const series = `${r.runtime}, ${r.ran}`;
    const time = 'search time (s)';
    return [
      { series, memories: r.count, measure: time, clock: 'wall', value: r.searchMs / 1000 },
      { series, memories: r.count, measure: time, clock: 'CPU', value: r.cpuMs / 1000 },
      {
        series,
        memories: r.count,
        measure: 'peak RSS (MiB)',
        clock: 'peak RSS',
        value: r.peakRssBytes / 2 ** 20,
      },
    ];
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: `Cost curve: ${nq} queries × ${dim} dims, exact top-${K}`,
    background: '#ffffff',
    data: { values: data },
    facet: { column: { field: 'measure', type: 'nominal', title: null } },
    spec: {
      width: 280,
      height: 220,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'memories', type: 'quantitative', scale: { type: 'log' }, title: 'memories' },
        y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: null },
        color: { field: 'series', type: 'nominal', title: 'runtime, kernel' },
        strokeDash: { field: 'clock', type: 'nominal', title: null },
        detail: { field: 'clock', type: 'nominal' },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const childCount = arg('node-one');
const chartFrom = arg('chart-from');
if (childCount) {
  await nodeChild(Number(childCount));
} else if (chartFrom) {
  const rows: Row[] = JSON.parse(await readFile(chartFrom, 'utf8'));
  await writeFile(CHART, await renderSvg(chartSpec(rows)));
  console.log(`chart: ${path.relative(repoRoot, CHART)} from ${rows.length} rows`);
} else {
  const loadBefore = loadavg();
  const rows: Row[] = [];
  const runs: [SearchKernel, number[]][] = [[kernel, sizes]];
  if (alsoKernel) runs.push([alsoKernel, sizes.filter((n) => n <= alsoMax)]);
  for (const [k, counts] of runs) {
    if (only === 'chromium') continue;
    for (const count of counts) {
      const row = await nodePoint(count, k);
      console.error(`node ${count} ${row.ran}: ${(row.searchMs / 1000).toFixed(2)} s`);
      rows.push(row);
    }
  }
  for (const [k, counts] of runs) {
    if (only !== 'node') rows.push(...(await chromiumPoints(counts, k)));
  }
  const loadAfter = loadavg();
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(
    `${nq} queries × ${dim} dims, exact top-${K}; load average before ${fmt(loadBefore)}, after ${fmt(loadAfter)}\n`,
  );
  console.log(table(rows));
  const ref = rows.find((r) => r.count === 100_000 && r.runtime === 'chromium' && r.ran !== 'simd');
  if (ref) {
    console.log(
      `\n10^5 × ${nq} in Chromium: ${(ref.searchMs / 1000).toFixed(2)} s wall, ${(ref.cpuMs / 1000).toFixed(2)} s CPU, against the 2 s goal (ratios ${(ref.searchMs / 2000).toFixed(2)}, ${(ref.cpuMs / 2000).toFixed(2)})`,
    );
  }
  await writeFile(CHART, await renderSvg(chartSpec(rows)));
  console.log(`\nchart: ${path.relative(repoRoot, CHART)}`);
  const save = arg('save-rows');
  if (save) await writeFile(save, JSON.stringify(rows));
}
