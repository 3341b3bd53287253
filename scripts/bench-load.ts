/**
 * Cold-load benchmark: builds with base /memlens/, serves it on 127.0.0.1, and measures
 * navigation → first rendered chart in fresh Chromium contexts; prints the initial JS gzip size.
 * Usage: npm run bench:load [-- --runs 5]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSite } from '../test/e2e/site.ts';
import { serveStatic } from '../test/e2e/static-server.ts';
import { launchChromium } from '../test/e2e/browser.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Scripts the browser must fetch before anything runs: the entry module and its modulepreloads. */
async function initialJsGzipBytes(
  root: string,
): Promise<{ raw: number; gzip: number; files: string[] }> {
  const html = await readFile(path.join(root, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]);
  let raw = 0;
  let gzip = 0;
  const files: string[] = [];
  for (const ref of refs) {
    const rel = ref.replace(/^\/memlens\//, '').replace(/^\.\//, '');
    const bytes = await readFile(path.join(root, rel));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    files.push(rel);
  }
  return { raw, gzip, files };
}

const root = await buildSite();
const server = await serveStatic({ root, base: '/memlens/' });
const browser = await launchChromium();
const times: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}#/inmind`);
    await page.waitForSelector('[data-chart] .chart-canvas[data-rendered="true"]', {
      timeout: 120_000,
    });
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const js = await initialJsGzipBytes(root);
console.log(`cold loads (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
console.log(
  `median navigation → first rendered chart: ${median(times).toFixed(0)} ms over ${runs} runs`,
);
console.log(
  `initial JS: ${js.files.join(', ')}: ${(js.raw / 1024).toFixed(1)} KiB raw, ${(js.gzip / 1024).toFixed(1)} KiB gzip`,
);
