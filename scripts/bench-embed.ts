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
 * `--token-budget N` caps each batch's padded tokens (rows × longest text; 0: no cap, the fixed
 * batches of before); `--corpus locomo` takes LoCoMo's turns instead of LME-s's.
 * `--compare-plans 32:0,256:4096` (onnxruntime-node only) times batch plans (most texts per batch
 * : token budget) in turn, run by run, in one process, so a shared machine's load falls on each
 * alike; 32:0 is the fixed batches of 32 that the site used before.
 * Usage: npm run bench:embed [-- --model minilm] [--dtypes fp32,q8] [--runs 3] [--texts 486]
 *   [--batches 1,8,16,32,64] [--token-budget 4096] [--corpus lme|locomo] [--no-webgpu]
 *   [--no-reference] [--webgpu-texts 48] [--node-only]
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { launchChromium } from './lib/chromium.ts';
import { median as medianOrNull } from '../src/lib/analysis/stats.ts';
import { locomoConversation, locomoSamples } from '../src/lib/datasets/locomo.ts';
import {
  DEFAULT_BATCH_PLAN,
  checkBatchPlan,
  type BatchPlan,
} from '../src/lib/embed/token-batches.ts';
import { createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import type { AutomationRequest } from '../src/lib/embed/automation.ts';
import type { DeviceChoice } from '../src/lib/embed/backend-choice.ts';
import type { ModelDtype } from '../src/lib/embed/model-registry.ts';
import { parseModelRef, refOfSpec, type ModelRef } from '../src/lib/embed/model-ref.ts';
import { ensureTestModels } from './fetch-models.ts';
import { cpuMsOfAll, loadAverage, rendererPeaks } from './lib/proc-stats.ts';
import { referenceTimings } from './lib/python-reference.ts';
import { checkCommandLine } from './lib/cli.ts';
import { lmeTurns } from './lib/bench-corpus.ts';

checkCommandLine({
  usage: `Usage: npm run bench:embed -- [options]

Embedding throughput on the LME-s background turns: Chromium WASM (1 thread, then threads on a
cross-origin-isolated page), WebGPU, onnxruntime-node and sentence-transformers, side by side.

Options:
  --model ID          model (default minilm)
  --dtypes D,D        dtypes (default fp32,q8)
  --runs N            timed runs after one warm-up (default 3)
  --texts N           the first N turns (default all 486)
  --batches B,B       batch sizes: texts per batch at most (default 1,8,16,32,64)
  --token-budget N    padded tokens per batch at most, 0 for none (default 4096, the site's)
  --corpus C          lme (the 486 LME-s turns, default) or locomo (LoCoMo's turns)
  --compare-plans P,P onnxruntime-node only: plans maxBatch:tokenBudget, interleaved run by run
  --webgpu-texts N    turns for the WebGPU run (default 48)
  --no-webgpu         skip WebGPU
  --no-reference      skip sentence-transformers
  --node-only         onnxruntime-node only
  -h, --help          print this and exit`,
  values: [
    '--model',
    '--dtypes',
    '--runs',
    '--texts',
    '--batches',
    '--webgpu-texts',
    '--token-budget',
    '--corpus',
    '--compare-plans',
  ],
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
const tokenBudget = Number(flag('--token-budget', String(DEFAULT_BATCH_PLAN.tokenBudget)));
if (!(Number.isInteger(tokenBudget) && tokenBudget >= 0)) {
  throw new Error(`bad --token-budget ${flag('--token-budget', '')}`);
}
const corpus = flag('--corpus', 'lme');
if (corpus !== 'lme' && corpus !== 'locomo') throw new Error(`bad --corpus ${corpus}`);
/** The batch size the WebGPU and sentence-transformers runs use. */
const SITE_BATCH = 32;
const webgpuTexts = Math.max(1, Number(flag('--webgpu-texts', '48')) || 48);
const { spec } = parseModelRef(MODEL, { backend: 'node' }, 'MODEL');
for (const d of dtypes) if (!spec.dtypes.includes(d)) throw new Error(`${MODEL} has no ${d}`);
for (const b of batches)
  if (!(Number.isInteger(b) && b > 0)) throw new Error(`bad batch size ${b}`);

function nodeRef(dtype: ModelDtype): ModelRef {
  return refOfSpec(spec, { dtype, backend: 'node' });
}

/** Runs are never empty here; NaN would show if they were. */
const median = (xs: readonly number[]): number => medianOrNull(xs) ?? Number.NaN;

/** LoCoMo's turns, conversation by conversation, in session and turn order. */
async function locomoTurns(): Promise<string[]> {
  const file = path.join(root, 'public/data/locomo/locomo10.json');
  const doc: unknown = JSON.parse(await readFile(file, 'utf8'));
  return locomoSamples(doc, 'locomo10.json').flatMap((sample) =>
    locomoConversation(sample, 'locomo').turns.map((t) => t.text),
  );
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
        tokenBudget,
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
  const embedder = await createNodeEmbedder({
    model: nodeRef(dtype),
    maxBatch: batch,
    tokenBudget,
  });
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

/** Each plan's embedder, timed in turn per run (warm-up first). */
async function budgetComparison(texts: string[], dtype: ModelDtype): Promise<string> {
  const embedders = [];
  for (const plan of comparePlans) {
    embedders.push(await createNodeEmbedder({ model: nodeRef(dtype), ...plan }));
  }
  try {
    const ms = comparePlans.map((): number[] => []);
    const cpu = comparePlans.map(() => 0);
    for (let i = 0; i <= runs; i++) {
      for (const [j, embedder] of embedders.entries()) {
        const start = performance.now();
        const used = process.cpuUsage();
        await embedder.embed(texts, { kind: 'document' });
        const spent = process.cpuUsage(used);
        if (i === 0) continue;
        ms[j].push(performance.now() - start);
        cpu[j] += (spent.user + spent.system) / 1000;
      }
    }
    const rates = ms.map((m) => texts.length / (median(m) / 1000));
    const lines = [
      `**${dtype}**, ${texts.length} texts, onnxruntime-node, plans interleaved run by run:`,
      '',
      '| texts per batch at most | token budget | texts/s | texts per CPU s | vs first |',
      '| --: | --: | --: | --: | --: |',
    ];
    comparePlans.forEach((plan, j) => {
      const perCpu = (texts.length / (cpu[j] / runs / 1000)).toFixed(1);
      lines.push(
        `| ${plan.maxBatch} | ${plan.tokenBudget || 'none'} | ${rates[j].toFixed(1)} | ${perCpu} | ${(rates[j] / rates[0]).toFixed(2)}× |`,
      );
    });
    return lines.join('\n');
  } finally {
    await Promise.all(embedders.map((e) => e.dispose()));
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
const comparePlans: BatchPlan[] = flag('--compare-plans', '')
  .split(',')
  .filter((p) => p !== '')
  .map((p) => {
    const [maxBatch, tokenBudget] = p.split(':').map(Number);
    const plan = { maxBatch, tokenBudget };
    checkBatchPlan(plan);
    return plan;
  });
const nodeOnly = process.argv.includes('--node-only') || comparePlans.length > 0;
const site = nodeOnly ? '' : await buildSite();
const texts = (corpus === 'lme' ? await lmeTurns() : await locomoTurns()).slice(0, textLimit);
const rate = (m: Measured) => (m.texts ?? texts.length) / (median(m.runMs) / 1000);
/** Texts per CPU second (all threads): what a pass costs, whatever else the machine runs. */
const cpuRate = (m: Measured) =>
  m.cpuMsPerRun === null || m.cpuMsPerRun <= 0
    ? '–'
    : ((m.texts ?? texts.length) / (m.cpuMsPerRun / 1000)).toFixed(1);
const load = loadAverage;
const started = new Date().toISOString().slice(11, 16);
const loadBefore = load();
const tables: string[] = [];
for (const dtype of dtypes) {
  if (comparePlans.length > 0) {
    tables.push(await budgetComparison(texts, dtype));
    continue;
  }
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
  `${texts.length} ${corpus === 'lme' ? 'LME-s' : 'LoCoMo'} turns, token budget ${comparePlans.length ? 'compared' : tokenBudget || 'none'} per batch, ${MODEL} (${spec.upstream ?? spec.label}), as documents, median of ${runs} runs after 1 warm-up; ${os.cpus().length} cores; started ${started} UTC, load average ${loadBefore} before, ${load()} after\n`,
);
console.log(tables.join('\n\n'));
