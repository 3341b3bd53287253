/**
 * Recomputes a benchmark's retrieval protocol from the site's data, with the page's own modules.
 * Usage: npm run reproduce -- --benchmark inmind --retriever bm25 --k 5 [--model tiny-bert]
 *   [--out DIR] [--target chunk|user] [--background raw|content] [--no-query-prefix]
 *   [--site DIR] [--model-root DIR] [--time N] [--synthetic-dims D]
 * Data: the site folder (default public/, filled by `npm run data`) loaded into DuckDB-WASM by the
 * app's own loaders; LoCoMo-Conv's conversational styles run when the site has a dialog file.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rowsToCsv } from '../src/lib/app/csv-export.ts';
import { loadBenchmarkData, loadCoreData } from '../src/lib/data/core-loader.ts';
import { loadSiteIndex } from '../src/lib/data/fetch-source.ts';
import { Catalog } from '../src/lib/db/catalog.ts';
import { openNodeEngine } from '../src/lib/db/node-engine.ts';
import type { Embedder } from '../src/lib/embed/embedder.ts';
import { getModelSpec } from '../src/lib/embed/model-registry.ts';
import { createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import { recallCurveSpec } from '../src/lib/charts/recall-curve.ts';
import { similarityHistogramSpec } from '../src/lib/charts/similarity-histogram.ts';
import { DEFAULT_SPEC, type ProtocolSpec } from '../src/lib/protocols/build.ts';
import { scoreProtocol, type Evaluation } from '../src/lib/protocols/evaluate.ts';
import { figuresOf, type Figures } from '../src/lib/protocols/figures.ts';
import { loadPaperRows } from '../src/lib/protocols/inputs.ts';
import { BM25_ID, RetrieverPool, type EmbedderFactory } from '../src/lib/protocols/pool.ts';
import { recallRowsAllK, summaryLines } from '../src/lib/protocols/report.ts';
import { scoreTitle } from '../src/lib/protocols/labels.ts';
import { runProtocol } from '../src/lib/protocols/run.ts';
import { isBenchmarkId, type Protocol } from '../src/lib/protocols/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CliOptions {
  spec: ProtocolSpec;
  retriever: string;
  k: number;
  queryPrefix: boolean;
  out: string | null;
  site: string;
  modelRoot: string | null;
  time: number;
  syntheticDims: number | null;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const hit = allowed.find((a) => a === value);
  if (hit === undefined) throw new Error(`${flag} must be one of ${allowed.join(', ')}`);
  return hit;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer`);
  return n;
}

function resolveRetriever(retriever: string | null, model: string | null): string {
  if (retriever === BM25_ID && model !== null) {
    throw new Error('--model picks a dense retriever: use --retriever dense --model ID');
  }
  if (retriever === null || retriever === 'dense') {
    if (model === null && retriever === 'dense') throw new Error('--retriever dense needs --model');
    return model ?? BM25_ID;
  }
  return retriever;
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const spec: ProtocolSpec = { ...DEFAULT_SPEC, inmind: { ...DEFAULT_SPEC.inmind } };
  let retriever: string | null = null;
  let model: string | null = null;
  const opts = {
    k: 0,
    queryPrefix: true,
    out: null as string | null,
    site: path.join(root, 'public'),
    modelRoot: null as string | null,
    time: 0,
    syntheticDims: null as number | null,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--benchmark') {
      const b = value();
      if (!isBenchmarkId(b)) throw new Error(`unknown benchmark "${b}"`);
      spec.benchmark = b;
    } else if (flag === '--retriever') retriever = value();
    else if (flag === '--model') model = value();
    else if (flag === '--k') opts.k = positiveInt(value(), flag);
    else if (flag === '--out') opts.out = path.resolve(value());
    else if (flag === '--site') opts.site = path.resolve(value());
    else if (flag === '--model-root') opts.modelRoot = path.resolve(value());
    else if (flag === '--target') spec.inmind.target = oneOf(value(), ['chunk', 'user'], flag);
    else if (flag === '--background') {
      spec.inmind.background = oneOf(value(), ['raw', 'content'], flag);
    } else if (flag === '--no-query-prefix') opts.queryPrefix = false;
    else if (flag === '--time') opts.time = positiveInt(value(), flag);
    else if (flag === '--synthetic-dims') opts.syntheticDims = positiveInt(value(), flag);
    else throw new Error(`unknown argument "${flag}"`);
  }
  const id = resolveRetriever(retriever, model);
  if (id !== BM25_ID) getModelSpec(id);
  return { spec, retriever: id, ...opts };
}

/** Node's fetch has no file: URLs; the loaders only need status, text and bytes. */
const fileFetch: typeof fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  try {
    return new Response(await readFile(fileURLToPath(url)));
  } catch {
    return new Response('not found', { status: 404 });
  }
};

/** The app's start-up path (site index, DuckDB-WASM, core and benchmark loaders) over a folder. */
export async function openSiteCatalog(
  site: string,
): Promise<{ catalog: Catalog; close: () => Promise<void> }> {
  const engine = await openNodeEngine();
  const catalog = new Catalog(engine);
  const resultsFiles = [];
  for (const folder of ['data/results', 'data/reproduced']) {
    const dir = path.join(root, folder);
    const names = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.csv')).sort();
    for (const f of names) {
      resultsFiles.push({ name: `${folder}/${f}`, url: pathToFileURL(path.join(dir, f)).href });
    }
  }
  const siteBase = pathToFileURL(`${site}${path.sep}`).href;
  const fetchOpts = {
    siteBase,
    allowUpstream: false,
    fetchImpl: fileFetch,
    siteFiles: await loadSiteIndex(siteBase, fileFetch),
  };
  const steps = [
    ...(await loadCoreData(catalog, fetchOpts, () => undefined, resultsFiles)),
    ...(await loadBenchmarkData(catalog, fetchOpts, () => undefined)),
  ];
  const failed = steps.filter((s) => s.state === 'error');
  if (failed.length > 0) {
    await engine.close();
    const detail = failed.map((s) => `${s.label}: ${s.detail}`).join('; ');
    throw new Error(`${detail} (run \`npm run data\` first)`);
  }
  return { catalog, close: () => engine.close() };
}

function nodeEmbedderFactory(modelRoot: string | null): EmbedderFactory {
  return async (modelId) => {
    const e = await createNodeEmbedder({ modelId, modelRoot: modelRoot ?? undefined });
    return {
      spec: e.spec,
      backend: 'node',
      async embed(texts, { kind }) {
        const { dim, vectors } = await e.embed(texts, { kind });
        return { dim, count: texts.length, vectors };
      },
      dispose: () => e.dispose(),
    };
  };
}

/** Seeded pseudo-random unit-free vectors: exercises the cosine path at a model's width, for timing only. */
export function syntheticEmbedderFactory(dims: number): EmbedderFactory {
  return async (modelId) => {
    const spec = { ...getModelSpec(modelId), dims };
    const vectorOf = (text: string): Float32Array => {
      let h = 2166136261;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
      const out = new Float32Array(dims);
      for (let i = 0; i < dims; i++) {
        h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
        out[i] = h / 4294967296 - 0.5;
      }
      return out;
    };
    const embedder: Embedder = {
      spec,
      backend: 'node',
      async embed(texts) {
        const vectors = new Float32Array(texts.length * dims);
        texts.forEach((t, i) => vectors.set(vectorOf(t), i * dims));
        return { dim: dims, count: texts.length, vectors };
      },
      dispose: async () => undefined,
    };
    return embedder;
  };
}

export interface CliRun {
  protocol: Protocol;
  evaluation: Evaluation;
  figures: Figures;
  k: number;
  lines: string[];
  /** Seconds to rescore and recompute every figure from cached vectors / tokens, per repeat. */
  recomputeSeconds: number[];
}

export async function reproduce(opts: CliOptions, catalog: Catalog): Promise<CliRun> {
  const factory =
    opts.syntheticDims !== null
      ? syntheticEmbedderFactory(opts.syntheticDims)
      : nodeEmbedderFactory(opts.modelRoot);
  const pool = new RetrieverPool(factory);
  try {
    const retriever = await pool.retriever(opts.retriever, opts.queryPrefix);
    const { protocol, evaluation } = await runProtocol(catalog, opts.spec, retriever);
    const k = opts.k || protocol.defaultK;
    const paper = await loadPaperRows(catalog);
    const figures = figuresOf(evaluation, k, paper);
    const recomputeSeconds: number[] = [];
    for (let i = 0; i < opts.time; i++) {
      const t0 = performance.now();
      figuresOf(scoreProtocol(protocol, retriever), k, paper);
      recomputeSeconds.push((performance.now() - t0) / 1000);
    }
    const lines = summaryLines(evaluation, k, figures.paper);
    return { protocol, evaluation, figures, k, lines, recomputeSeconds };
  } finally {
    await pool.dispose();
  }
}

export async function writeOutputs(run: CliRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { figures, evaluation } = run;
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'recall.csv': rowsToCsv(recallRowsAllK(evaluation).map((c) => ({ ...c }))),
    'queries.csv': rowsToCsv(figures.queries.map((q) => ({ ...q }))),
    'separation.csv': rowsToCsv(
      figures.separation.map(({ series, stats }) => ({
        series,
        auc: stats.auc,
        ks: stats.ks,
        target_n: stats.target.n,
        target_mean: stats.target.mean,
        target_median: stats.target.median,
        background_n: stats.background.n,
        background_mean: stats.background.mean,
        background_median: stats.background.median,
      })),
    ),
    'histogram.csv': rowsToCsv(figures.histogram.map((b) => ({ ...b }))),
    'paper.csv': rowsToCsv(
      figures.paper.map((c) => ({
        paper: c.paper.paper,
        table: c.paper.table,
        row: c.paper.row,
        column: c.paper.column,
        paper_value: c.paper.value_text,
        series: c.series,
        ours: c.ours,
        difference: c.difference,
        same_retriever: c.sameRetriever,
        same_k: c.sameK,
      })),
    ),
    'similarity.vl.json': JSON.stringify(
      similarityHistogramSpec(figures.histogram, scoreTitle(evaluation.retrieverId)),
      null,
      2,
    ),
    'recall-curve.vl.json': JSON.stringify(recallCurveSpec(figures.curves, run.k), null, 2),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const { catalog, close } = await openSiteCatalog(opts.site);
  try {
    const run = await reproduce(opts, catalog);
    if (opts.syntheticDims !== null)
      console.log('synthetic vectors: timing only, numbers meaningless\n');
    console.log(run.lines.join('\n'));
    if (run.recomputeSeconds.length > 0) {
      const sorted = [...run.recomputeSeconds].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      console.log(
        `\nrecompute every figure from cached ${opts.retriever === BM25_ID ? 'tokens' : 'vectors'}: ` +
          `median ${median.toFixed(3)} s, max ${sorted[sorted.length - 1].toFixed(3)} s over ${sorted.length} runs`,
      );
    }
    const dir =
      opts.out ?? path.join(root, 'dist/reproduce', `${opts.spec.benchmark}-${opts.retriever}`);
    const written = await writeOutputs(run, dir);
    console.log(`\nwrote ${written.length} files to ${path.relative(process.cwd(), dir) || '.'}`);
  } finally {
    await close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
