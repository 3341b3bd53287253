/**
 * Where Chromium's WASM loses to onnxruntime-node: MiniLM on the first `--texts` LME-s turns, as
 * documents, tokenized once and planned as the site plans them (DEFAULT_BATCH_PLAN), run through
 * onnxruntime-node and through onnxruntime-web's WASM (the site's build and thread count) in a
 * worker of a cross-origin-isolated headless Chromium page. Per runtime and dtype: one unprofiled
 * pass (wall, CPU ÷ wall), then one with ORT's profiler; kernel time per op type side by side.
 * Usage: npm run profile:embed [-- --dtypes fp32,q8] [--texts 128] [--wasm-build asyncify|plain]
 */
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ortNode from 'onnxruntime-node';
import { AutoTokenizer, env } from '@huggingface/transformers';
import type { Page } from 'playwright-core';
import { checkCommandLine } from './lib/cli.ts';
import { lmeTurns } from './lib/bench-corpus.ts';
import { bundleBrowserEntry, repoRoot } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { launchChromium } from './lib/chromium.ts';
import { cpuMsOfAll, loadAverage, rendererPeaks } from './lib/proc-stats.ts';
import {
  feedArrays,
  kernelEventsOfFile,
  kernelEventsOfLines,
  opTotals,
  type KernelEvent,
} from './lib/ort-profile.ts';
import type { Finished, PrepareRequest, ProfileMessage } from './lib/profile-browser-entry.ts';
import { encodeTexts, padIdOf } from '../src/lib/embed/forward.ts';
import { prepareTexts } from '../src/lib/embed/text-prep.ts';
import { DEFAULT_BATCH_PLAN, paddedTokens, planBatches } from '../src/lib/embed/token-batches.ts';
import {
  getModelSpec,
  localModelRoot,
  modelLoadId,
  weightsFile,
  type ModelDtype,
} from '../src/lib/embed/model-registry.ts';

checkCommandLine({
  usage: `Usage: npm run profile:embed -- [options]

Per-op profile of MiniLM on onnxruntime-node and on Chromium WASM (threads, cross-origin isolated),
the same LME-s turns, batched as the site batches them (${DEFAULT_BATCH_PLAN.maxBatch} texts / ${DEFAULT_BATCH_PLAN.tokenBudget} tokens).

Options:
  --dtypes D,D   dtypes (default fp32,q8)
  --texts N      the first N LME-s turns (default 128)
  --wasm-build B asyncify (the site's, default) or plain (ORT's build without asyncify)
  --one-thread   one thread on both sides (intra-op 1, numThreads 1): kernels alone
  -h, --help     print this and exit`,
  values: ['--dtypes', '--texts', '--wasm-build'],
  flags: ['--one-thread'],
});

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const spec = getModelSpec('minilm');
const dtypes = flag('--dtypes', 'fp32,q8')
  .split(',')
  .map((d) => {
    const found = spec.dtypes.find((x) => x === d);
    if (!found) throw new Error(`minilm has no dtype ${d}`);
    return found;
  });
const textCount = Number(flag('--texts', '128'));
if (!(Number.isInteger(textCount) && textCount > 0)) throw new Error('--texts needs a count');
const oneThread = process.argv.includes('--one-thread');
const modelDir = path.join(repoRoot, localModelRoot(spec), modelLoadId(spec));

/** One timed pass over every batch; events only where profiled. */
interface Pass {
  wallMs: number;
  cpuMs: number;
  events: KernelEvent[];
}

interface RuntimeResult {
  plain: Pass;
  profiled: Pass;
  threads: string;
}

async function tokenBatches(): Promise<{
  batches: number[][][];
  padId: number;
  padding: string[];
}> {
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${path.dirname(modelDir)}/`;
  const tokenizer = await AutoTokenizer.from_pretrained(modelLoadId(spec), {
    local_files_only: true,
  });
  const all = encodeTexts(tokenizer, spec, prepareTexts(spec, await lmeTurns(), 'document'));
  const ids = all.slice(0, textCount);
  const plan = planBatches(
    ids.map((r) => r.length),
    DEFAULT_BATCH_PLAN,
  );
  return {
    batches: plan.map((b) => b.map((i) => ids[i])),
    padId: padIdOf(tokenizer),
    padding: [paddingLine(ids), paddingLine(all)],
  };
}

/** Padded tokens ÷ real tokens of the site's plan over these texts. */
function paddingLine(ids: readonly number[][]): string {
  const lengths = ids.map((r) => r.length);
  const plan = planBatches(lengths, DEFAULT_BATCH_PLAN);
  const real = lengths.reduce((a, b) => a + b, 0);
  const padded = paddedTokens(lengths, plan);
  return `${ids.length} texts: ${plan.length} batches, ${real} real tokens, ${padded} padded (${(padded / real).toFixed(3)}×)`;
}

function nodeFeeds(rows: number[][], padId: number): Record<string, ortNode.Tensor> {
  const f = feedArrays(rows, padId);
  return {
    input_ids: new ortNode.Tensor('int64', f.inputIds, f.dims),
    attention_mask: new ortNode.Tensor('int64', f.attentionMask, f.dims),
    token_type_ids: new ortNode.Tensor('int64', f.tokenTypeIds, f.dims),
  };
}

/** onnxruntime-node with transformers.js's options (the CPU provider only): warm-up, one pass. */
async function nodePass(
  modelPath: string,
  batches: number[][][],
  padId: number,
  profiling: boolean,
): Promise<Pass> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'memlens-profile-'));
  const session = await ortNode.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    ...(oneThread ? { intraOpNumThreads: 1 } : {}),
    enableProfiling: profiling,
    profileFilePrefix: path.join(dir, 'node'),
  });
  try {
    await session.run(nodeFeeds(batches[0], padId));
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const rows of batches) await session.run(nodeFeeds(rows, padId));
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (!profiling) return { wallMs, cpuMs: (used.user + used.system) / 1000, events: [] };
    session.endProfiling();
    const [file] = await readdir(dir);
    const events = kernelEventsOfFile(await readFile(path.join(dir, file), 'utf8'));
    return { wallMs, cpuMs: (used.user + used.system) / 1000, events };
  } finally {
    await session.release();
    await rm(dir, { recursive: true, force: true });
  }
}

async function nodeRuntime(dtype: ModelDtype, batches: number[][][], padId: number) {
  const modelPath = path.join(modelDir, weightsFile(spec, dtype).path);
  const plain = await nodePass(modelPath, batches, padId, false);
  const profiled = await nodePass(modelPath, batches, padId, true);
  return {
    plain,
    profiled,
    threads: oneThread ? '1 (intra-op 1)' : 'ORT default (intra-op pool = cores)',
  };
}

const ORT_DIST = path.join(repoRoot, 'node_modules/onnxruntime-web/dist');
/** ORT's bundle and its wasm: transformers.js imports `onnxruntime-web/webgpu` (asyncify). */
const WASM_BUILDS = {
  asyncify: { bundle: 'ort.webgpu.bundle.min.mjs', wasm: 'ort-wasm-simd-threaded.asyncify.wasm' },
  plain: { bundle: 'ort.wasm.bundle.min.mjs', wasm: 'ort-wasm-simd-threaded.wasm' },
};
const buildName = flag('--wasm-build', 'asyncify');
if (buildName !== 'asyncify' && buildName !== 'plain')
  throw new Error(`bad --wasm-build ${buildName}`);
const { bundle: ORT_BUNDLE, wasm: ORT_WASM } = WASM_BUILDS[buildName];

/** The entry bundled, beside ORT's own bundle and wasm (as the site ships them) and the model. */
async function browserSite(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'memlens-profile-site-'));
  await bundleBrowserEntry({
    entry: 'scripts/lib/profile-browser-entry.ts',
    dir,
    fileName: 'profile.js',
    rollupOptions: {
      external: ['onnxruntime-web/webgpu'],
      output: { paths: { 'onnxruntime-web/webgpu': `./${ORT_BUNDLE}` } },
    },
  });
  for (const f of [ORT_BUNDLE, ORT_WASM]) await symlink(path.join(ORT_DIST, f), path.join(dir, f));
  await symlink(modelDir, path.join(dir, 'model'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>profile</title><script type="module" src="./profile.js"></script>',
  );
  return dir;
}

function asFinished(value: unknown): Finished {
  if (typeof value !== 'object' || value === null) throw new Error('no profile from the page');
  const v: Record<string, unknown> = { ...value };
  const lines = v.lines;
  if (
    typeof v.crossOriginIsolated !== 'boolean' ||
    typeof v.numThreads !== 'number' ||
    typeof v.hardwareConcurrency !== 'number' ||
    !Array.isArray(lines) ||
    !lines.every((l) => typeof l === 'string')
  ) {
    throw new Error('malformed profile from the page');
  }
  return {
    crossOriginIsolated: v.crossOriginIsolated,
    numThreads: v.numThreads,
    hardwareConcurrency: v.hardwareConcurrency,
    lines,
  };
}

const send = (page: Page, message: ProfileMessage): Promise<unknown> =>
  page.evaluate((m) => globalThis.memlensProfile?.(m), message);

async function browserPass(page: Page, req: PrepareRequest): Promise<[Pass, Finished]> {
  await send(page, { kind: 'prepare', req });
  const renderers = [...(await rendererPeaks()).keys()];
  const cpu0 = await cpuMsOfAll(renderers);
  const wallMs = await send(page, { kind: 'run' });
  const cpuMs = (await cpuMsOfAll(renderers)) - cpu0;
  if (typeof wallMs !== 'number') throw new Error('the page timed nothing');
  const finished = asFinished(await send(page, { kind: 'finish' }));
  const events = req.profiling ? kernelEventsOfLines(finished.lines) : [];
  return [{ wallMs, cpuMs, events }, finished];
}

async function browserRuntime(
  site: string,
  dtype: ModelDtype,
  batches: number[][][],
  padId: number,
): Promise<RuntimeResult> {
  const server = await serveStatic({ root: site, base: '/profile/', crossOriginIsolated: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => globalThis.memlensProfile !== undefined);
    const req: PrepareRequest = {
      modelUrl: `${server.url}model/${weightsFile(spec, dtype).path}`,
      wasmUrl: `${server.url}${ORT_WASM}`,
      batches,
      padId,
      profiling: false,
      oneThread,
    };
    const [plain, info] = await browserPass(page, req);
    const [profiled] = await browserPass(page, { ...req, profiling: true });
    const threads = `${info.numThreads}, ${buildName} build (crossOriginIsolated ${info.crossOriginIsolated}, hardwareConcurrency ${info.hardwareConcurrency})`;
    return { plain, profiled, threads };
  } finally {
    await browser.close();
    await server.close();
  }
}

const ms = (us: number) => (us / 1000).toFixed(0);

function opTable(node: RuntimeResult, web: RuntimeResult, runs: number): string[] {
  const n = opTotals(node.profiled.events, runs, runs - 1);
  const w = opTotals(web.profiled.events, runs, runs - 1);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const [nTotal, wTotal] = [sum(n), sum(w)];
  const ops = [...new Set([...n.keys(), ...w.keys()])].sort(
    (a, b) => (w.get(b) ?? 0) - (w.get(a) ?? 0),
  );
  const rows = ops.map((op) => {
    const [a, b] = [n.get(op) ?? 0, w.get(op) ?? 0];
    const ratio = a > 0 ? `${(b / a).toFixed(2)}×` : '–';
    const gap = ((b - a) / (wTotal - nTotal)) * 100;
    return `| ${op} | ${ms(a)} | ${((a / nTotal) * 100).toFixed(1)} % | ${ms(b)} | ${((b / wTotal) * 100).toFixed(1)} % | ${ratio} | ${gap.toFixed(1)} % |`;
  });
  return [
    '| op type | node ms | node share | WASM ms | WASM share | WASM ÷ node | share of the gap |',
    '| --- | --: | --: | --: | --: | --: | --: |',
    ...rows,
    `| all kernels | ${ms(nTotal)} | 100 % | ${ms(wTotal)} | 100 % | ${(wTotal / nTotal).toFixed(2)}× | 100 % |`,
  ];
}

function passLine(label: string, r: RuntimeResult): string {
  const busy = (p: Pass) => (p.cpuMs / p.wallMs).toFixed(2);
  return `${label}: threads ${r.threads}; unprofiled pass ${r.plain.wallMs.toFixed(0)} ms (${busy(r.plain)} cores busy), profiled ${r.profiled.wallMs.toFixed(0)} ms (${busy(r.profiled)} cores busy)`;
}

const load = loadAverage;
const started = new Date().toISOString().slice(11, 16);
const loadBefore = load();
const { batches, padId, padding } = await tokenBatches();
const site = await browserSite();
const out: string[] = [];
try {
  for (const dtype of dtypes) {
    const node = await nodeRuntime(dtype, batches, padId);
    const web = await browserRuntime(site, dtype, batches, padId);
    const ratio = node.plain.wallMs / web.plain.wallMs;
    out.push(
      `**${dtype}**: WASM ÷ node ${ratio.toFixed(2)}× (unprofiled, texts/s)`,
      passLine('onnxruntime-node', node),
      passLine('Chromium WASM', web),
      '',
      ...opTable(node, web, batches.length + 1),
      '',
    );
  }
} finally {
  await rm(site, { recursive: true, force: true });
}
console.log(
  `${textCount} LME-s turns, ${batches.length} batches (${DEFAULT_BATCH_PLAN.maxBatch} texts / ${DEFAULT_BATCH_PLAN.tokenBudget} tokens), MiniLM; started ${started} UTC, load ${loadBefore} before, ${load()} after\n`,
);
console.log(`Padding, the site's plan: ${padding.join('; ')}\n`);
console.log(out.join('\n'));
