/**
 * Map pick benchmark: builds the test site (or reuses dist-e2e/ with MEMLENS_E2E_PREBUILT=1),
 * opens the Reproduce page on LoCoMo with tiny-bert (7,864 points) in headless Chromium, and
 * times each pick from the click on a query's point to that point being drawn as selected.
 * Usage: npx tsx scripts/bench-map.ts [--picks 5] [--bench locomo] [--model tiny-bert]
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { launchChromium } from './lib/chromium.ts';
import { E2E_BASE, buildSite } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { checkCommandLine } from './lib/cli.ts';

checkCommandLine({
  usage: `Usage: npm run bench:map -- [options]

Times picks on the Reproduce page's embedding map in headless Chromium: from the click on a
query's point to that point drawn as selected.

Options:
  --picks N     picks to time (default 5)
  --bench B     benchmark (default locomo)
  --model ID    model (default tiny-bert)
  -h, --help    print this and exit`,
  values: ['--picks', '--bench', '--model'],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const picks = Math.max(1, Number(arg('picks')) || 5);
const bench = arg('bench') ?? 'locomo';
const model = arg('model') ?? 'tiny-bert';
const MAP = '[data-chart="reproduce-map"] .chart-canvas';

/** Query points, most isolated first (a click there can only mean that point). */
function isolatedQueries(page: Page, count: number) {
  return page.$$eval(
    `${MAP} [aria-label]`,
    (els, n) => {
      const points = els
        .map((e) => {
          const r = e.getBoundingClientRect();
          return {
            label: e.getAttribute('aria-label') ?? '',
            x: r.left + r.width / 2,
            y: r.top + r.height / 2,
          };
        })
        .filter((p) => p.label.startsWith('query |') || p.label.startsWith('memory |'));
      const queries = points.filter((p) => p.label.startsWith('query |'));
      const gaps = queries.map((p) => {
        let gap = Infinity;
        for (const o of points) if (o !== p) gap = Math.min(gap, Math.hypot(o.x - p.x, o.y - p.y));
        return { id: p.label.split(' | ')[2], x: p.x, y: p.y, gap };
      });
      return gaps.sort((a, b) => b.gap - a.gap).slice(0, n);
    },
    count,
  );
}

const server = await serveStatic({ root: await buildSite(), base: E2E_BASE });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const params = new URLSearchParams({ bench, ret: model, device: 'wasm' });
  await page.goto(`${server.url}#/reproduce?${params.toString()}`);
  await page.waitForSelector(`.embedding-map[data-map-state="ready"] ${MAP}[data-rendered]`, {
    timeout: 280_000,
  });
  await page.locator(MAP).scrollIntoViewIfNeeded();
  const memories = await page.locator(`${MAP} [aria-label^="memory |"]`).count();
  const queries = await page.locator(`${MAP} [aria-label^="query |"]`).count();
  const targets = await isolatedQueries(page, picks);
  const times: number[] = [];
  const updates: string[] = [];
  // The chart's SVG root: a re-embedded chart gets a new one.
  await page.$eval(`${MAP} svg`, (svg) => svg.setAttribute('data-bench-root', 'first'));
  for (const t of targets) {
    const start = performance.now();
    await page.mouse.click(t.x, t.y);
    await page.waitForFunction(
      ([sel, id]) =>
        [...document.querySelectorAll(`${sel} [aria-label^="query | query | ${id} |"]`)].some((e) =>
          (e.getAttribute('aria-label') ?? '').includes('selected'),
        ),
      [MAP, t.id] as const,
      { timeout: 60_000, polling: 'raf' },
    );
    times.push(performance.now() - start);
    await page.waitForTimeout(300);
    // The map's own in-place update, where the page reports one (`data-map-update-ms`).
    updates.push((await page.locator('.embedding-map').getAttribute('data-map-update-ms')) ?? '–');
  }
  const sameRoot = (await page.locator(`${MAP} svg[data-bench-root="first"]`).count()) === 1;
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(
    `${bench}, ${model}: ${memories} memories + ${queries} queries; pick → selected point drawn: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}; map update in place: ${updates.join(', ')} ms; ${sameRoot ? 'same' : 'a new'} SVG root (load ${load.join(' ')})`,
  );
} finally {
  await browser.close();
  await server.close();
}
