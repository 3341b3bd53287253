/**
 * The checks of BGE-small that need the Hub, run by .github/workflows/verify.yml after
 * `npm run models` fetched `Xenova/bge-small-en-v1.5` at its pinned commit:
 *   parity       Node (onnxruntime-node) and Chromium WASM fp32 vs sentence-transformers
 *                BAAI/bge-small-en-v1.5 (its pinned commit) on the 1,200 parity texts: min cosine ≥ 0.99999
 *   locomo-plus  the release's scores.bge recomputed for all 401 records: max |ours − released| ≤ 1e-4
 *   protocols    InMind Figure 4 with BGE and its query prefix, and every protocol with BGE, in the CLI
 *   rows         data/reproduced/bge-small.csv (the long format of memlens.csv) for the artifact
 * Without BGE-small on this machine every step fails at once and says so.
 * Usage: npm run verify:bge -- --step parity|locomo-plus|protocols|rows|all
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getModelSpec } from '../src/lib/embed/model-registry.ts';
import { refOfSpec } from '../src/lib/embed/model-ref.ts';
import { checkModelFiles, createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import type { AutomationRequest, AutomationResult } from '../src/lib/embed/automation.ts';
import { BENCHMARKS } from '../src/lib/benchmarks/registry.ts';
import { parityCorpus } from './lib/parity-corpus.ts';
import { hubReferenceEmbeddings } from './lib/python-reference.ts';
import { rowCosines, type Matrix } from './lib/ranking.ts';
import { buildSite, E2E_BASE } from './lib/site-build.ts';
import { serveStatic } from './lib/static-server.ts';
import { launchChromium, watchPage } from './lib/chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STEPS = ['parity', 'locomo-plus', 'protocols', 'rows', 'all'] as const;
type Step = (typeof STEPS)[number];
export const MIN_COSINE = 0.99999;
export const MAX_RELEASE_DEVIATION = 1e-4;
export const PARITY_TEXTS = 1200;
const spec = getModelSpec('bge-small');

export const USAGE = `Usage: npm run verify:bge -- --step ${STEPS.join('|')}
  Checks BGE-small where the Hub is reachable (.github/workflows/verify.yml); needs
  public/models/bge-small (npm run models) and the reference environment (scripts/setup-python.sh).`;

class UsageError extends Error {}

function parseArgs(argv: string[]): Step | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  let step: Step = 'all';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--step') throw new UsageError(`unknown option "${argv[i]}"`);
    const found = STEPS.find((s) => s === argv[i + 1]);
    if (!found) throw new UsageError(`--step takes ${STEPS.join(', ')}`);
    step = found;
    i++;
  }
  return step;
}

/** Fails first and plainly where the Hub was never reached: no BGE-small files here. */
async function requireBge(): Promise<void> {
  try {
    await checkModelFiles(spec, path.join(root, 'public/models', spec.id), 'fp32');
  } catch (err) {
    throw new Error(
      `BGE-small is not on this machine (${errorMessage(err)}). These checks need the Hub: ` +
        'run them where huggingface.co is reachable, after npm run models (the verify workflow does).',
    );
  }
}

async function chromiumVectors(texts: string[]): Promise<Matrix> {
  const server = await serveStatic({ root: await buildSite(), base: E2E_BASE });
  const browser = await launchChromium({ webgpu: false });
  try {
    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(`${server.url}#/embeddings`);
    await page.waitForFunction(() => window.memlens !== undefined);
    const req: AutomationRequest = { model: spec.id, texts, device: 'wasm', dtype: 'fp32' };
    const result: AutomationResult = await page.evaluate((r) => window.memlens!.embed(r), req);
    const foreign = watch.foreignRequests(server.origin);
    if (foreign.length > 0)
      throw new Error(`requests outside the page's origin: ${foreign.join(', ')}`);
    return { vectors: result.vectors, dim: result.dim };
  } finally {
    await browser.close();
    await server.close();
  }
}

async function parity(): Promise<void> {
  const corpus = (await parityCorpus(PARITY_TEXTS)).map((t) => t.text);
  if (corpus.length < PARITY_TEXTS) throw new Error(`parity corpus has ${corpus.length} texts`);
  const reference = hubReferenceEmbeddings(spec, corpus);
  const model = refOfSpec(spec, { dtype: 'fp32', backend: 'node' });
  const embedder = await createNodeEmbedder({ model });
  let node: Matrix;
  try {
    node = await embedder.embed(corpus, { kind: 'document' });
  } finally {
    await embedder.dispose();
  }
  const chromium = await chromiumVectors(corpus);
  const failures: string[] = [];
  for (const [name, m] of [
    ['Node', node],
    ['Chromium WASM', chromium],
  ] as const) {
    const min = Math.min(...rowCosines(m, reference));
    console.log(
      `bge-small fp32 ${name} vs sentence-transformers on ${corpus.length} texts: min cosine ${min.toFixed(7)}`,
    );
    if (!(min >= MIN_COSINE)) failures.push(`${name}: min cosine ${min} < ${MIN_COSINE}`);
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
}

/** `npm run …` exactly as docs print it; its output passes through and comes back. */
function npm(args: string[]): Promise<string> {
  console.log(`$ npm ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(d);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`npm ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function locomoPlus(): Promise<void> {
  const out = await npm([
    'run',
    'reproduce',
    '--',
    '--benchmark',
    'locomo-plus',
    '--model',
    spec.id,
  ]);
  const records = /· (\d+) records/.exec(out)?.[1];
  const max = /max \|deviation\| ([0-9.e+-]+)/.exec(out)?.[1];
  if (records !== '401')
    throw new Error(`expected 401 LoCoMo-Plus records, the CLI printed ${records ?? 'none'}`);
  if (max === undefined || !(Number(max) <= MAX_RELEASE_DEVIATION)) {
    throw new Error(
      `scores.bge: max |ours − released| ${max ?? '(not printed)'} > ${MAX_RELEASE_DEVIATION}`,
    );
  }
}

async function protocols(): Promise<void> {
  await npm([
    'run',
    'reproduce',
    '--',
    '--benchmark',
    'inmind-figure4',
    '--model',
    spec.id,
    '--query-prefix',
  ]);
  for (const benchmark of BENCHMARKS) {
    await npm(['run', 'reproduce', '--', '--benchmark', benchmark, '--model', spec.id]);
  }
}

async function rows(): Promise<void> {
  await mkdir(path.join(root, 'data/reproduced'), { recursive: true });
  await npm([
    'run',
    'reproduce:publish',
    '--',
    '--models',
    spec.id,
    '--out',
    'data/reproduced/bge-small.csv',
  ]);
}

const RUN: Record<Exclude<Step, 'all'>, () => Promise<void>> = {
  parity,
  'locomo-plus': locomoPlus,
  protocols,
  rows,
};

async function main(): Promise<void> {
  let step: Step | 'help';
  try {
    step = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`error: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  if (step === 'help') {
    console.log(USAGE);
    return;
  }
  try {
    await requireBge();
    for (const [name, run] of Object.entries(RUN)) {
      if (step === 'all' || step === name) await run();
    }
  } catch (err) {
    console.error(`verify:bge ${step}: ${errorMessage(err)}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
