/**
 * Embedding throughput: tiny-bert on the 486 LME-s background turns, in headless Chromium on WASM
 * (the built site's worker, driven through `window.memlens.embed`; single-threaded, then threaded
 * on a cross-origin-isolated server) and in Node (onnxruntime-node via node-embedder). Same texts,
 * same model, same batch size; one warm-up run, then the median of N timed runs each.
 * Usage: npm run bench:embed [-- --runs 5]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from '../test/e2e/site.ts';
import { serveStatic } from '../test/e2e/static-server.ts';
import { launchChromium } from '../test/e2e/browser.ts';
import { lmeBackgroundRows } from '../src/lib/datasets/inmind.ts';
import { createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import type { AutomationRequest } from '../src/lib/embed/automation.ts';
import { ensureTestModels } from './fetch-models.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const runs = Math.max(5, Number(runsArg >= 0 ? process.argv[runsArg + 1] : 5) || 5);
const MODEL = 'tiny-bert';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The page's order: DuckDB's `ORDER BY session_index, turn_index, id`. */
async function lmeTurns(): Promise<string[]> {
  const file = path.join(root, 'public/data/inmind/lme_s_background.jsonl');
  const rows = lmeBackgroundRows(await readFile(file, 'utf8'));
  rows.sort(
    (a, b) =>
      a.session_index - b.session_index ||
      a.turn_index - b.turn_index ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return rows.map((r) => r.content);
}

interface Measured {
  label: string;
  threads: string;
  runMs: number[];
}

async function browserRuns(texts: string[], isolated: boolean, site: string): Promise<Measured> {
  const server = await serveStatic({
    root: site,
    base: '/memlens/',
    crossOriginIsolated: isolated,
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}#/embeddings`);
    await page.waitForFunction(() => window.memlens !== undefined);
    const request: AutomationRequest = { texts, model: MODEL, device: 'wasm', repeats: runs + 1 };
    const result = await page.evaluate((req) => window.memlens!.embed(req), request);
    if (result.report.backend !== 'wasm') throw new Error(`ran on ${result.report.backend}`);
    return {
      label: `Chromium WASM${isolated ? ' (cross-origin isolated)' : ''}`,
      threads: String(result.report.threads),
      runMs: result.runMs.slice(1),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

async function nodeRuns(texts: string[]): Promise<Measured> {
  const embedder = await createNodeEmbedder({ modelId: MODEL, maxBatch: 32 });
  try {
    const runMs: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const start = performance.now();
      await embedder.embed(texts, { kind: 'document' });
      if (i > 0) runMs.push(performance.now() - start);
    }
    return { label: 'Node onnxruntime-node', threads: 'ORT default', runMs };
  } finally {
    await embedder.dispose();
  }
}

await ensureTestModels([MODEL]);
const site = await buildSite();
const texts = await lmeTurns();
const results = [
  await browserRuns(texts, false, site),
  await browserRuns(texts, true, site),
  await nodeRuns(texts),
];
const rate = (m: Measured) => texts.length / (median(m.runMs) / 1000);
const node = rate(results[2]);
console.log(
  `${texts.length} LME-s turns, ${MODEL}, batch 32, median of ${runs} runs after 1 warm-up`,
);
for (const m of results) {
  console.log(
    `${m.label.padEnd(40)} threads ${m.threads.padEnd(12)} ${rate(m).toFixed(0).padStart(6)} texts/s` +
      `  (${(rate(m) / node).toFixed(2)}× Node)  runs ms: ${m.runMs.map((t) => t.toFixed(0)).join(', ')}`,
  );
}
