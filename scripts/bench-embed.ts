/**
 * Embedding throughput against batch size and threads, one model, the same texts everywhere: the
 * LME-s background turns (the first `--texts N`, default all 486, in the page's order) embedded as
 * documents at each batch size of `--batches` (default 1,8,16,32,64) in headless Chromium on WASM
 * (1 thread on a plain server, then 2 on a cross-origin-isolated one), driven through the built
 * site's `window.memlens.embed`, and in Node with onnxruntime-node; printed as one table per dtype
 * with texts/s and each browser figure's ratio to onnxruntime-node at the same batch size. At
 * batch 32 only: WebGPU (SwiftShader here, CPU emulation; first `--webgpu-texts` turns, one timed
 * run) and sentence-transformers on torch CPU (fp32). One warm-up run, then the median of N.
 * Also texts per CPU second (every thread of the page's renderer, or of this Node process), the
 * fairer figure on a shared machine; in the browser a model load is subtracted.
 * Usage: npm run bench:embed [-- --model minilm] [--dtypes fp32,q8] [--runs 3] [--texts 486]
 *   [--batches 1,8,16,32,64] [--no-webgpu] [--no-reference] [--webgpu-texts 48] [--node-only]
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { launchChromium } from './lib/chromium.ts';
import { median as medianOrNull } from '../src/lib/analysis/stats.ts';
import { inPageOrder, lmeBackgroundRows } from '../src/lib/datasets/inmind.ts';
import { createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import type { AutomationRequest } from '../src/lib/embed/automation.ts';
import type { DeviceChoice } from '../src/lib/embed/backend-choice.ts';
import { getModelSpec, type ModelDtype } from '../src/lib/embed/model-registry.ts';
import { ensureTestModels } from './fetch-models.ts';
import { cpuMsOfAll, rendererPeaks } from './lib/proc-stats.ts';
import { referenceTimings } from './lib/python-reference.ts';
import { checkCommandLine } from './lib/cli.ts';

checkCommandLine({
  usage: `Usage: npm run bench:embed -- [options]

Embedding throughput on the LME-s background turns: Chromium WASM (1 thread, then threads on a
cross-origin-isolated page), WebGPU, onnxruntime-node and sentence-transformers, side by side.

Options:
  --model ID          model (default minilm)
  --dtypes D,D        dtypes (default fp32,q8)
  --runs N            timed runs after one warm-up (default 3)
  --texts N           the first N turns (default all 486)
  --batches B,B       batch sizes (default 1,8,16,32,64)
  --webgpu-texts N    turns for the WebGPU run (default 48)
  --no-webgpu         skip WebGPU
  --no-reference      skip sentence-transformers
  --node-only         onnxruntime-node only
  -h, --help          print this and exit`,
  values: ['--model', '--dtypes', '--runs', '--texts', '--batches', '--webgpu-texts'],
  flags: ['--no-webgpu', '--no-reference', '--node-only'],
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const MODEL = flag('--model', 'minilm');
const runs = Math.max(1, Number(flag('--runs', '3')) || 3);
const dtypes = flag('--dtypes', 'fp32,q8').split(',') as ModelDtype[];
const withWebgpu = !process.argv.includes('--no-webgpu');
const withReference = !process.argv.includes('--no-reference');
const batches = flag('--batches', '1,8,16,32,64').split(',').map(Number);
const textLimit = Number(flag('--texts', '0')) || Infinity;
/** The batch size the site uses (browser-embedder.ts, node-embedder.ts). */
const SITE_BATCH = 32;
const webgpuTexts = Math.max(1, Number(flag('--webgpu-texts', '48')) || 48);
const spec = getModelSpec(MODEL);
for (const d of dtypes) if (!spec.dtypes.includes(d)) throw new Error(`${MODEL} has no ${d}`);
for (const b of batches)
  if (!(Number.isInteger(b) && b > 0)) throw new Error(`bad batch size ${b}`);

/** Runs are never empty here; NaN would show if they were. */
const median = (xs: readonly number[]): number => medianOrNull(xs) ?? Number.NaN;

/** The page's order: DuckDB's `ORDER BY session_index, turn_index, id`. */
async function lmeTurns(): Promise<string[]> {
  const file = path.join(root, 'public/data/inmind/lme_s_background.jsonl');
  const rows = lmeBackgroundRows(await readFile(file, 'utf8'));
  return inPageOrder(rows).map((r) => r.content);
}

interface Measured {
  label: string;
  dtype: ModelDtype;
  threads: string;
  batch: number;
  runMs: number[];
  /** CPU time (all threads) of one pass over the texts; null where not measured. */
  cpuMsPerRun: number | null;
  /** Texts per run, when fewer than the whole set. */
  texts?: number;
}

interface BrowserCase {
  label: string;
  device: DeviceChoice;
  isolated: boolean;
  webgpu: boolean;
}

/** One browser and page per case; the model is loaded afresh (HTTP-cached) per batch size. */
async function browserRuns(
  allTexts: string[],
  c: BrowserCase,
  dtype: ModelDtype,
  site: string,
  sizes: readonly number[],
): Promise<Measured[]> {
  const subset = c.device === 'webgpu';
  const texts = subset ? allTexts.slice(0, webgpuTexts) : allTexts;
  const server = await serveStatic({
    root: site,
    base: '/memlens/',
    crossOriginIsolated: c.isolated,
  });
  const browser = await launchChromium({ webgpu: c.webgpu });
  const out: Measured[] = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}#/embeddings`);
    await page.waitForFunction(() => window.memlens !== undefined);
    const renderers = [...(await rendererPeaks()).keys()];
    for (const batch of sizes) {
      const request: AutomationRequest = {
        texts,
        model: MODEL,
        device: c.device,
        dtype,
        repeats: subset ? 2 : runs + 1,
        maxBatch: batch,
      };
      // A load and one tiny text first: its CPU is subtracted (each request loads the model).
      const c0 = await cpuMsOfAll(renderers);
      const probe = { ...request, texts: ['a'], repeats: 1 };
      await page.evaluate((req) => window.memlens!.embed(req), probe);
      const c1 = await cpuMsOfAll(renderers);
      const result = await page.evaluate((req) => window.memlens!.embed(req), request);
      const c2 = await cpuMsOfAll(renderers);
      if (result.report.backend !== c.device) {
        throw new Error(
          `${c.label} ran on ${result.report.backend}: ${result.report.fallbackReason}`,
        );
      }
      const threads = c.device === 'webgpu' ? 'GPU' : String(result.report.threads);
      const passes = result.runMs.length;
      const measured: Measured = {
        label: c.label,
        dtype,
        threads,
        batch,
        runMs: result.runMs.slice(1),
        cpuMsPerRun: renderers.length ? (c2 - c1 - (c1 - c0)) / passes : null,
      };
      out.push(subset ? { ...measured, texts: texts.length } : measured);
      console.error(
        `${dtype} ${c.label} batch ${batch}: ${measured.runMs.map((t) => t.toFixed(0))} ms, CPU ${measured.cpuMsPerRun?.toFixed(0)} ms per pass`,
      );
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

async function nodeRuns(texts: string[], dtype: ModelDtype, batch: number): Promise<Measured> {
  const embedder = await createNodeEmbedder({ modelId: MODEL, dtype, maxBatch: batch });
  try {
    const runMs: number[] = [];
    let cpuMs = 0;
    for (let i = 0; i <= runs; i++) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      await embedder.embed(texts, { kind: 'document' });
      const used = process.cpuUsage(cpu);
      if (i > 0) {
        runMs.push(performance.now() - start);
        cpuMs += (used.user + used.system) / 1000;
      }
    }
    const cpuMsPerRun = cpuMs / runs;
    return {
      label: 'Node onnxruntime-node',
      dtype,
      threads: 'ORT default',
      batch,
      runMs,
      cpuMsPerRun,
    };
  } finally {
    await embedder.dispose();
  }
}

const wasmCases: BrowserCase[] = [
  { label: 'Chromium WASM', device: 'wasm', isolated: false, webgpu: false },
  { label: 'Chromium WASM (cross-origin isolated)', device: 'wasm', isolated: true, webgpu: false },
];
const webgpuCase: BrowserCase = {
  label: 'Chromium WebGPU (SwiftShader, CPU)',
  device: 'webgpu',
  isolated: false,
  webgpu: true,
};

await ensureTestModels([MODEL]);
const nodeOnly = process.argv.includes('--node-only');
const site = nodeOnly ? '' : await buildSite();
const texts = (await lmeTurns()).slice(0, textLimit);
const rate = (m: Measured) => (m.texts ?? texts.length) / (median(m.runMs) / 1000);
/** Texts per CPU second (all threads): what a pass costs, whatever else the machine runs. */
const cpuRate = (m: Measured) =>
  m.cpuMsPerRun === null || m.cpuMsPerRun <= 0
    ? '–'
    : ((m.texts ?? texts.length) / (m.cpuMsPerRun / 1000)).toFixed(1);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const started = new Date().toISOString().slice(11, 16);
const loadBefore = load();
const tables: string[] = [];
for (const dtype of dtypes) {
  if (nodeOnly) {
    const lines = [`**${dtype}**, ${texts.length} texts, onnxruntime-node only:`, ''];
    for (const b of batches) {
      const n = await nodeRuns(texts, dtype, b);
      lines.push(`batch ${b}: ${rate(n).toFixed(1)} texts/s, ${cpuRate(n)} texts per CPU s`);
    }
    tables.push(lines.join('\n'));
    continue;
  }
  const wasm: Measured[][] = [];
  for (const c of wasmCases) wasm.push(await browserRuns(texts, c, dtype, site, batches));
  const node: Measured[] = [];
  for (const b of batches) node.push(await nodeRuns(texts, dtype, b));
  const bestNode = Math.max(...node.map(rate));
  const threadsOf = (ms: Measured[]) => ms[0]?.threads ?? '?';
  const lines = [
    `**${dtype}**, ${texts.length} texts:`,
    '',
    `| batch | WASM, ${threadsOf(wasm[0])} thread: texts/s | WASM, ${threadsOf(wasm[1])} threads (COI): texts/s | onnxruntime-node: texts/s | WASM 1 t / node | WASM ${threadsOf(wasm[1])} t / node | texts per CPU s: WASM 1 t / ${threadsOf(wasm[1])} t / node |`,
    '| --: | --: | --: | --: | --: | --: | --: |',
  ];
  batches.forEach((b, i) => {
    const [w1, w2, n] = [wasm[0][i], wasm[1][i], node[i]];
    lines.push(
      `| ${b} | ${rate(w1).toFixed(1)} | ${rate(w2).toFixed(1)} | ${rate(n).toFixed(1)} | ${(rate(w1) / rate(n)).toFixed(2)}× | ${(rate(w2) / rate(n)).toFixed(2)}× | ${cpuRate(w1)} / ${cpuRate(w2)} / ${cpuRate(n)} |`,
    );
  });
  const best = (ms: Measured[]) => ms.reduce((a, m) => (rate(m) > rate(a) ? m : a));
  lines.push(
    '',
    `Best batch: WASM 1 thread ${best(wasm[0]).batch} (${rate(best(wasm[0])).toFixed(1)} texts/s), WASM ${threadsOf(wasm[1])} threads ${best(wasm[1]).batch} (${rate(best(wasm[1])).toFixed(1)}), onnxruntime-node ${best(node).batch} (${bestNode.toFixed(1)}).`,
  );
  const extra: Measured[] = [];
  if (withWebgpu) extra.push(...(await browserRuns(texts, webgpuCase, dtype, site, [SITE_BATCH])));
  if (withReference && dtype === 'fp32' && spec.source.kind === 'pypi') {
    const st = await referenceTimings(spec, texts, runs);
    extra.push({
      label: 'sentence-transformers (torch CPU)',
      dtype,
      threads: String(st.threads),
      batch: SITE_BATCH,
      runMs: st.runMs,
      cpuMsPerRun: null,
    });
  }
  const nodeAtSite = node.find((n) => n.batch === SITE_BATCH) ?? node[0];
  for (const m of extra) {
    lines.push(
      `${m.label}, threads ${m.threads}, batch ${m.batch}: ${rate(m).toFixed(1)} texts/s (${(rate(m) / rate(nodeAtSite)).toFixed(2)}× onnxruntime-node at batch ${nodeAtSite.batch})` +
        (m.texts ? ` [first ${m.texts} turns, 1 timed run]` : ''),
    );
  }
  tables.push(lines.join('\n'));
}
console.log(
  `${texts.length} LME-s turns, ${MODEL} (${spec.upstream ?? spec.label}), as documents, median of ${runs} runs after 1 warm-up; ${os.cpus().length} cores; started ${started} UTC, load average ${loadBefore} before, ${load()} after\n`,
);
console.log(tables.join('\n\n'));
