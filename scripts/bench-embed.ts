/**
 * Embedding throughput on the 486 LME-s background turns, one model, same texts and batch size
 * everywhere: headless Chromium on WASM (1 thread, then threaded on a cross-origin-isolated
 * server) and on WebGPU (SwiftShader here: CPU emulation of a GPU), driven through the built
 * site's `window.memlens.embed`; Node onnxruntime-node; and sentence-transformers on torch CPU
 * (fp32 only: it runs the safetensors). One warm-up run, then the median of N timed runs.
 * WebGPU on SwiftShader takes minutes per pass, so it runs on the first `--webgpu-texts` turns
 * (default 48) with one timed run, and its line says so.
 * Usage: npm run bench:embed [-- --model minilm] [--dtypes fp32,q8] [--runs 3] [--no-webgpu]
 *   [--webgpu-texts 48]
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
import { referenceTimings } from './lib/python-reference.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const MODEL = flag('--model', 'minilm');
const runs = Math.max(1, Number(flag('--runs', '3')) || 3);
const dtypes = flag('--dtypes', 'fp32,q8').split(',') as ModelDtype[];
const withWebgpu = !process.argv.includes('--no-webgpu');
const webgpuTexts = Math.max(1, Number(flag('--webgpu-texts', '48')) || 48);
const spec = getModelSpec(MODEL);
for (const d of dtypes) if (!spec.dtypes.includes(d)) throw new Error(`${MODEL} has no ${d}`);

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
  runMs: number[];
  /** Texts per run, when fewer than the whole set. */
  texts?: number;
}

interface BrowserCase {
  label: string;
  device: DeviceChoice;
  isolated: boolean;
  webgpu: boolean;
}

async function browserRuns(
  allTexts: string[],
  c: BrowserCase,
  dtype: ModelDtype,
  site: string,
): Promise<Measured> {
  const subset = c.device === 'webgpu';
  const texts = subset ? allTexts.slice(0, webgpuTexts) : allTexts;
  const server = await serveStatic({
    root: site,
    base: '/memlens/',
    crossOriginIsolated: c.isolated,
  });
  const browser = await launchChromium({ webgpu: c.webgpu });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}#/embeddings`);
    await page.waitForFunction(() => window.memlens !== undefined);
    const request: AutomationRequest = {
      texts,
      model: MODEL,
      device: c.device,
      dtype,
      repeats: subset ? 2 : runs + 1,
    };
    const result = await page.evaluate((req) => window.memlens!.embed(req), request);
    if (result.report.backend !== c.device) {
      throw new Error(
        `${c.label} ran on ${result.report.backend}: ${result.report.fallbackReason}`,
      );
    }
    const threads = c.device === 'webgpu' ? 'GPU' : String(result.report.threads);
    const measured = { label: c.label, dtype, threads, runMs: result.runMs.slice(1) };
    return subset ? { ...measured, texts: texts.length } : measured;
  } finally {
    await browser.close();
    await server.close();
  }
}

async function nodeRuns(texts: string[], dtype: ModelDtype): Promise<Measured> {
  const embedder = await createNodeEmbedder({ modelId: MODEL, dtype, maxBatch: 32 });
  try {
    const runMs: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const start = performance.now();
      await embedder.embed(texts, { kind: 'document' });
      if (i > 0) runMs.push(performance.now() - start);
    }
    return { label: 'Node onnxruntime-node', dtype, threads: 'ORT default', runMs };
  } finally {
    await embedder.dispose();
  }
}

const cases: BrowserCase[] = [
  { label: 'Chromium WASM', device: 'wasm', isolated: false, webgpu: false },
  { label: 'Chromium WASM (cross-origin isolated)', device: 'wasm', isolated: true, webgpu: false },
  ...(withWebgpu
    ? [
        {
          label: 'Chromium WebGPU (SwiftShader, CPU)',
          device: 'webgpu' as const,
          isolated: false,
          webgpu: true,
        },
      ]
    : []),
];

await ensureTestModels([MODEL]);
const site = await buildSite();
const texts = await lmeTurns();
const rate = (m: Measured) => (m.texts ?? texts.length) / (median(m.runMs) / 1000);
console.log(
  `${texts.length} LME-s turns, ${MODEL} (${spec.upstream ?? spec.label}), batch 32, median of ${runs} runs after 1 warm-up; ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const dtype of dtypes) {
  const results: Measured[] = [];
  for (const c of cases) results.push(await browserRuns(texts, c, dtype, site));
  const node = await nodeRuns(texts, dtype);
  results.push(node);
  if (dtype === 'fp32' && spec.source.kind === 'pypi') {
    const st = await referenceTimings(spec, texts, runs);
    results.push({
      label: 'sentence-transformers (torch CPU)',
      dtype,
      threads: String(st.threads),
      runMs: st.runMs,
    });
  }
  for (const m of results) {
    console.log(
      `${m.dtype.padEnd(5)} ${m.label.padEnd(40)} threads ${m.threads.padEnd(12)} ${rate(m).toFixed(1).padStart(7)} texts/s` +
        `  (${(rate(m) / rate(node)).toFixed(2)}× onnxruntime-node)  runs ms: ${m.runMs.map((t) => t.toFixed(0)).join(', ')}` +
        (m.texts ? `  [first ${m.texts} turns, 1 timed run]` : ''),
    );
  }
}
