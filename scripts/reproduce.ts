/**
 * Recomputes a benchmark's retrieval protocol from the site's data, with the page's own modules.
 * `npm run reproduce -- --help` prints every option. Data: the site folder (default public/,
 * filled by `npm run data`) loaded into DuckDB-WASM by the app's own loaders.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rowsToCsv } from '../src/lib/common/csv-export.ts';
import { loadBenchmarkData, loadCoreData } from '../src/lib/loaders/core-loader.ts';
import { loadSiteIndex } from '../src/lib/data/fetch-source.ts';
import { Catalog } from '../src/lib/db/catalog.ts';
import { openNodeEngine } from '../src/lib/db/node-engine.ts';
import type { Embedder } from '../src/lib/embed/embedder.ts';
import {
  MODEL_DTYPES,
  filesForDtype,
  listModelSpecs,
  type ModelDtype,
  type ModelSpec,
} from '../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../src/lib/embed/model-ref.ts';
import { createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import { nodeRuntime } from '../src/lib/embed/node-runtime.ts';
import { recallCurveSpec } from '../src/lib/charts/recall-curve.ts';
import { similarityHistogramSpec } from '../src/lib/charts/similarity-histogram.ts';
import { DEFAULT_SPEC, type ProtocolSpec } from '../src/lib/protocols/build.ts';
import { choiceLabel, paperDefault } from '../src/lib/protocols/defaults.ts';
import {
  applyOptions,
  isReleaseSpec,
  optionForFlag,
  optionQueryPrefix,
  optionUsage,
} from '../src/lib/benchmarks/options.ts';
import { scoreProtocol, type Evaluation } from '../src/lib/protocol-kit/evaluate.ts';
import { figuresOf, type Figures } from '../src/lib/protocol-kit/figures.ts';
import { loadLocomoPlusRelease, loadPaperRows } from '../src/lib/protocol-kit/inputs.ts';
import {
  recomputeRelease,
  type ReleaseComparison,
} from '../src/lib/protocol-kit/locomo-plus-release.ts';
import {
  BM25_ID,
  RetrieverPool,
  parseRetriever,
  type EmbedderFactory,
} from '../src/lib/protocol-kit/pool.ts';
import {
  comparisonLine,
  recallRowsAllK,
  summaryLines,
  targetRankLine,
} from '../src/lib/protocol-kit/report.ts';
import { levelOf, recallTable, separationTable } from '../src/lib/protocol-kit/summary.ts';
import { scoreTitle } from '../src/lib/protocol-kit/labels.ts';
import { buildProtocol } from '../src/lib/protocols/build.ts';
import { runProtocol, scoreRetriever } from '../src/lib/protocols/run.ts';
import {
  compareRetrievers,
  type ComparedRetriever,
  type Comparison,
} from '../src/lib/protocol-kit/compare.ts';
import {
  SUBMISSION_KIND,
  formatSubmissionRef,
  openSubmissions,
  pairedProtocol,
  submissionCompared,
  type SubmissionSource,
} from '../src/lib/protocol-kit/submission-retriever.ts';
import { submissionSystemsQuery } from '../src/lib/userdata/submission-proxy-queries.ts';
import { comparisonCsvRows, comparisonLines } from '../src/lib/protocol-kit/compare-report.ts';
import {
  formatRetrieverRef,
  parseRetrieverRef,
  registryRef,
  resolveRetrieverRef,
  type ResolvedRetriever,
  type RetrieverRef,
} from '../src/lib/protocol-kit/retriever-ref.ts';
import type { Protocol } from '../src/lib/protocol-kit/types.ts';
import {
  BENCHMARK_DEFS,
  benchmarkById,
  paperRowsWhere,
  paperTargetOf,
  protocolEntries,
  protocolRun,
} from '../src/lib/benchmarks/registry.ts';
import type { BenchmarkDef } from '../src/lib/benchmarks/benchmark-def.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { DRY_RUN_LINE, dryRunRequested } from './lib/cli.ts';
import { cachedEmbedder, type CacheCounts } from '../src/lib/embed/cached-embedder.ts';
import { VectorFileStore, vectorCacheDir } from './lib/vector-file-store.ts';
import { bytesSource } from '../src/lib/userdata/byte-source.ts';
import { inspectUserFile } from '../src/lib/userdata/inspect.ts';
import { readInputFile } from './lib/input-file.ts';
import { loadUserFile, planFrom } from '../src/lib/userdata/load.ts';
import { freeTableName, userTableName } from '../src/lib/userdata/table-name.ts';
import { decodeDecl, type UserBenchmarkDecl } from '../src/lib/userdata/benchmark-decl.ts';
import {
  fieldChoices,
  suggestDecl,
  readUserTableRows,
} from '../src/lib/userdata/benchmark-rows.ts';
import { declareUserBenchmark } from '../src/lib/userdata/declare.ts';
import { readDeclaration } from '../src/lib/protocol-kit/user-benchmark.ts';
import { openBrought } from './lib/brought.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const FORMATS = ['table', 'json', 'csv'] as const;
export type OutputFormat = (typeof FORMATS)[number];

export interface CliOptions {
  spec: ProtocolSpec;
  /** `bm25` or the model's id, as the output folder and the report name it. */
  retriever: string;
  /** The dense model, parsed once from `--model`/`--retriever` and `--dtype`; null for BM25. */
  model: ModelRef | null;
  k: number;
  queryPrefix: boolean;
  format: OutputFormat;
  out: string | null;
  site: string;
  modelRoot: string | null;
  time: number;
  syntheticDims: number | null;
  /** Weights of the dense model; null: the model's first (fp32 where it has one). */
  dtype: ModelDtype | null;
  /** `--compare`: two or more retrievers on the same queries; null for one retriever. */
  compare: RetrieverRef[] | null;
  /** Level of the tie groups after Holm. */
  alpha: number;
  /** `--benchmark-file`: the reader's own benchmark file, loaded as Your data loads it. */
  benchmarkFile: string | null;
  /** `--mapping`: the declaration JSON (Your data's "Download declaration"); null: suggested. */
  mapping: string | null;
}

/** A mistake in the command line: the CLI prints it with the usage and exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const hit = allowed.find((a) => a === value);
  if (hit === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`);
  return hit;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`);
  return n;
}

const NODE = { backend: 'node' } as const;

/**
 * `--model ID[:DTYPE]` (or `--retriever ID`), read by the one retriever grammar and resolved in
 * Node: the CLI runs the machine's copy (`@node`, the only backend it runs, may be written).
 */
function modelArg(text: string, dtype: ModelDtype | null): ModelRef {
  const id = text.endsWith('@node') ? text.slice(0, -'@node'.length) : text;
  if (/[@+]/.test(id)) {
    throw new UsageError(
      `--model: "${text}": the CLI runs the machine's copy in Node (src/lib/embed/node-runtime.ts): give ID or ID:DTYPE`,
    );
  }
  try {
    const model = parseRetriever(id, { ...NODE, dtype: dtype ?? undefined }, '--model');
    if (model !== BM25_ID) return model;
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
  throw new UsageError('--model picks a dense retriever: use --retriever bm25');
}

/** `--compare bm25,minilm,minilm:q8`: each a known retriever, none twice, two or more. */
export function compareRefs(text: string): RetrieverRef[] {
  const refs = text.split(',').map((part) => {
    try {
      const ref = parseRetrieverRef(part);
      if (ref.submission?.kind === 'table') {
        throw new Error(
          `"${part}": sub:TABLE:SYSTEM names a table of the page's Your data; here give the file, submission:FILE[:SYSTEM]`,
        );
      }
      if (!ref.brought && !ref.submission) resolveRetrieverRef(ref, NODE, '--compare');
      return ref;
    } catch (err) {
      throw new UsageError(`--compare: ${errorMessage(err)}`);
    }
  });
  const names = refs.map(formatRetrieverRef);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`--compare names "${twice}" twice`);
  if (refs.length < 2) throw new UsageError('--compare needs two or more retrievers');
  return refs;
}

function level(value: string, flag: string): number {
  const a = Number(value);
  if (!(a > 0 && a < 1)) throw new UsageError(`${flag} must be a number between 0 and 1`);
  return a;
}

function resolveRetriever(
  retriever: string | null,
  model: string | null,
  fallback: string,
): string {
  if (retriever === BM25_ID && model !== null) {
    throw new UsageError('--model picks a dense retriever: use --retriever dense --model ID');
  }
  if (retriever === 'dense' && model === null)
    throw new UsageError('--retriever dense needs --model');
  if (retriever === null || retriever === 'dense') return model ?? fallback;
  return retriever;
}

/** Whether the fp32 files of a model are on this machine (site folder, or the repository for local models). */
export function modelOnDisk(spec: ModelSpec, site: string): string | null {
  const dirs = [path.join(site, 'models', spec.id)];
  if (spec.source.kind === 'local') dirs.push(path.join(root, spec.source.path));
  const files = filesForDtype(spec, spec.dtypes[0]);
  return dirs.find((d) => files.every((f) => existsSync(path.join(d, f.path)))) ?? null;
}

export function usage(
  site = path.join(root, 'public'),
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): string {
  const protocols = protocolEntries(defs);
  const benchmarks = protocols.map(({ id, label }) => {
    const run = protocolRun(id, defs);
    if (!run) return `  ${id.padEnd(15)} ${label}; no protocol builder yet`;
    const d = run.defaults;
    return `  ${id.padEnd(15)} ${d.source}; default retriever ${d.retriever}`;
  });
  const ids = protocols.map((p) => p.id).join(', ');
  const models = listModelSpecs().map((m) => {
    const where = modelOnDisk(m, site);
    const here = where
      ? `here (${path.relative(process.cwd(), where) || '.'})`
      : 'not on this machine (npm run models)';
    return `  ${m.id.padEnd(15)} ${m.label}, ${m.dtypes.join('/')}: ${here}`;
  });
  return [
    'Usage: npm run reproduce -- [options]',
    '',
    "Recomputes a paper's retrieval protocol on the site data and sets the paper's numbers beside",
    'ours, each with its comparability (exact, proxy or other scope) and a 95% interval.',
    '',
    'Options:',
    `  --benchmark B        one of ${ids} (default inmind)`,
    '  --benchmark-file F   your own benchmark instead: a JSONL/CSV/Parquet file whose rows are',
    '                       memories and queries, loaded and declared as on the Your data page',
    '  --mapping FILE.json  its declaration (Your data: "Download declaration", or the run\'s',
    '                       declaration.json); default: the one the page suggests',
    ...optionUsage(defs),
    "  --retriever R        bm25, dense (with --model) or a model id (default: the paper's, see below)",
    '  --model ID[:DTYPE]   dense model id (see below), optionally with its weights (minilm:q8)',
    "  --k N                k of the headline numbers (default: the paper's)",
    "  --query-prefix       embed queries with the model's query prefix (default: as the paper)",
    '  --no-query-prefix    embed queries as plain documents',
    `  --format F           ${FORMATS.join(' | ')} on stdout (default table)`,
    '  --out DIR            also write CSVs and Vega-Lite specs there (default dist/reproduce/<benchmark>-<retriever>)',
    '  --site DIR           site folder with data/ and models/ (default public/)',
    '  --model-root DIR     folder holding model directories (hub models)',
    '  --time N             time N rescoring runs from cached vectors',
    `  --dtype D            dense model weights: ${MODEL_DTYPES.join(' | ')} (default the model's first; fp32 is the only exact one)`,
    '  --synthetic-dims D   seeded fake vectors of width D (timing only; numbers meaningless)',
    '  --compare R1,R2[,…]  compare retrievers on the same queries: bm25, a model id, or ID:DTYPE',
    '                       (e.g. bm25,minilm,minilm:q8), or a model you bring: onnx:PATH[:DTYPE]',
    '                       (a transformers.js export with its sentence-transformers files),',
    '                       hub:OWNER/NAME@COMMIT[:DTYPE] (the same on the Hub, at a 40-hex commit,',
    '                       from $MEMLENS_HUB_URL, default https://huggingface.co, into',
    "                       ~/.cache/memlens/hub with each file's sha256 recorded on first download)",
    '                       or pack:FILE (a vector pack from npm run embed:pack -- --benchmark B);',
    '                       or submission:FILE[:SYSTEM] (an InMind submission: each system, or the',
    '                       one named, ranked by the Target Recall proxy on the tasks it covers;',
    '                       a comma in a system name is written %2C);',
    '                       recall@1/5/10 and AUC with 95% intervals,',
    "                       each pair's exact McNemar test and paired bootstrap Δ, Holm, tie groups;",
    '                       --out DIR writes comparison.csv (one row per pair × metric × k)',
    '  --alpha A            level of the tie groups after Holm (default 0.05)',
    '  -h, --help           print this and exit',
    '',
    'Benchmarks:',
    ...benchmarks,
    '',
    'Retrievers: bm25 (rank_bm25 BM25Okapi, needs no model) and the models:',
    ...models,
    '',
    'Vectors are kept in ~/.cache/memlens/vectors ($MEMLENS_CACHE/vectors), one file per model and',
    'dtype, so a rerun embeds only new texts; MEMLENS_VECTOR_CACHE=off embeds every text.',
    '',
    'Exit status: 0 done, 1 failed (e.g. data or model missing), 2 bad command line.',
  ].join('\n');
}

export type ParsedArgs = { help: true } | ({ help: false } & CliOptions);

/** Parses the command line; `--help` anywhere wins. Throws UsageError on any mistake. */
export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  return { help: false, ...parseArgs(argv) };
}

export function parseArgs(
  argv: readonly string[],
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): CliOptions {
  let benchmark = DEFAULT_SPEC.benchmark;
  /** The protocol options' values by URL key, from their flags (benchmarks/options.ts). */
  const asked: Record<string, string> = {};
  let retriever: string | null = null;
  let model: string | null = null;
  let queryPrefix: boolean | null = null;
  const opts = {
    k: 0,
    format: 'table' as OutputFormat,
    out: null as string | null,
    site: path.join(root, 'public'),
    modelRoot: null as string | null,
    time: 0,
    syntheticDims: null as number | null,
    dtype: null as ModelDtype | null,
    compare: null as RetrieverRef[] | null,
    alpha: 0.05,
    benchmarkFile: null as string | null,
    mapping: null as string | null,
  };
  let benchmarkGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--benchmark') {
      const b = value();
      const ids = protocolEntries(defs).map((p) => p.id);
      if (!ids.includes(b))
        throw new UsageError(`unknown benchmark "${b}"; one of ${ids.join(', ')}`);
      if (!protocolRun(b, defs)) {
        throw new UsageError(
          `${b}: in the benchmark registry, but no protocol builder runs it yet`,
        );
      }
      benchmark = b;
      benchmarkGiven = true;
    } else if (flag === '--benchmark-file') {
      opts.benchmarkFile = path.resolve(value());
      benchmark = userTableName(opts.benchmarkFile);
    } else if (flag === '--mapping') opts.mapping = path.resolve(value());
    else if (flag === '--retriever') retriever = value();
    else if (flag === '--model') model = value();
    else if (flag === '--k') opts.k = positiveInt(value(), flag);
    else if (flag === '--format') opts.format = oneOf(value(), FORMATS, flag);
    else if (flag === '--out') opts.out = path.resolve(value());
    else if (flag === '--site') opts.site = path.resolve(value());
    else if (flag === '--model-root') opts.modelRoot = path.resolve(value());
    else if (flag === '--no-query-prefix') queryPrefix = false;
    else if (flag === '--query-prefix') queryPrefix = true;
    else if (flag === '--time') opts.time = positiveInt(value(), flag);
    else if (flag === '--synthetic-dims') opts.syntheticDims = positiveInt(value(), flag);
    else if (flag === '--dtype') opts.dtype = oneOf(value(), MODEL_DTYPES, flag);
    else if (flag === '--compare') opts.compare = compareRefs(value());
    else if (flag === '--alpha') opts.alpha = level(value(), flag);
    else {
      const option = optionForFlag(flag, defs);
      if (!option) throw new UsageError(`unknown option "${flag}"`);
      asked[option.key] = oneOf(
        value(),
        option.choices.map((c) => c.value),
        flag,
      );
    }
  }
  if (benchmarkGiven && opts.benchmarkFile !== null) {
    throw new UsageError('--benchmark and --benchmark-file each name the benchmark: give one');
  }
  if (opts.mapping !== null && opts.benchmarkFile === null) {
    throw new UsageError('--mapping declares a --benchmark-file: give the file too');
  }
  const spec = applyOptions({ ...DEFAULT_SPEC, benchmark }, asked, defs);
  const paper = protocolRun(benchmark, defs)?.defaults ?? paperDefault(benchmark);
  const id = resolveRetriever(retriever, model, paper.retriever);
  const ref = id === BM25_ID ? null : modelArg(id, opts.dtype);
  if (opts.compare !== null && (retriever !== null || model !== null)) {
    throw new UsageError('--compare names every retriever: drop --retriever and --model');
  }
  if (opts.compare !== null && isRelease(spec, defs)) {
    throw new UsageError('--compare ranks retrievers: use it with --mode retrieval on LoCoMo-Plus');
  }
  if (isRelease(spec, defs) && id === BM25_ID) {
    throw new UsageError(
      'LoCoMo-Plus release mode compares dense cosines: pick --model, or --mode retrieval',
    );
  }
  return {
    spec,
    retriever: id,
    model: ref,
    queryPrefix: queryPrefix ?? optionQueryPrefix(spec, defs) ?? paper.queryPrefix,
    ...opts,
  };
}

/** Whether the spec runs the release's own comparison (an option's choice says so). */
export function isRelease(
  spec: ProtocolSpec,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): boolean {
  return isReleaseSpec(spec, defs);
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
/**
 * Whether protocol `id` reads the conversation benchmarks' tables (loaded after the core data);
 * InMind's protocols read only the core's, so their runs skip the rest (about a second of a
 * four-second run). An unknown id loads everything.
 */
export function needsBenchmarkTables(id: string): boolean {
  const def = benchmarkById(protocolEntries().find((p) => p.id === id)?.benchmark ?? '');
  return def?.dataset?.phase !== 'core';
}

export async function openSiteCatalog(
  site: string,
  { benchmarks = true }: { benchmarks?: boolean } = {},
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
    ...(benchmarks ? await loadBenchmarkData(catalog, fetchOpts, () => undefined) : []),
  ];
  const failed = steps.filter((s) => s.state === 'error');
  if (failed.length > 0) {
    await engine.close();
    const detail = failed.map((s) => `${s.label}: ${s.detail}`).join('; ');
    throw new Error(`${detail} (run \`npm run data\` first)`);
  }
  return { catalog, close: () => engine.close() };
}

/** The declaration `--mapping` names, or the one Your data suggests for the loaded table. */
async function declarationFor(
  catalog: Catalog,
  table: string,
  mapping: string | null,
): Promise<UserBenchmarkDecl> {
  if (mapping === null) {
    const rows = await readUserTableRows(catalog, table);
    return suggestDecl(fieldChoices(rows), rows);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readInputFile(mapping, '--mapping (a declaration)')).toString());
  } catch (err) {
    throw new Error(`--mapping ${path.relative(process.cwd(), mapping)}: ${errorMessage(err)}`);
  }
  return decodeDecl(parsed, path.relative(process.cwd(), mapping));
}

/** `declaration.json` beside a `--benchmark-file` run's outputs: what `--mapping` reads back. */
export async function writeDeclaration(
  catalog: Catalog,
  opts: CliOptions,
  dir: string,
): Promise<string> {
  const file = path.join(dir, 'declaration.json');
  const decl = await readDeclaration(catalog, opts.spec.benchmark);
  await writeFile(file, `${JSON.stringify(decl, null, 2)}\n`);
  return file;
}

/**
 * `--benchmark-file`: a DuckDB holding only that file, loaded and declared as the Your data page
 * does (inspect, the suggested field mapping, the declaration checked against every row).
 */
export async function openBenchmarkFileCatalog(
  file: string,
  mapping: string | null,
): Promise<{ catalog: Catalog; close: () => Promise<void> }> {
  const engine = await openNodeEngine();
  const catalog = new Catalog(engine);
  try {
    const bytes = await readInputFile(file, '--benchmark-file (JSONL, JSON, CSV, TSV or Parquet)');
    const source = bytesSource(path.basename(file), bytes);
    const plan = planFrom(await inspectUserFile(source));
    const { table } = await loadUserFile(catalog, source, plan);
    await declareUserBenchmark(catalog, table, await declarationFor(catalog, table, mapping));
  } catch (err) {
    await engine.close();
    throw err;
  }
  return { catalog, close: () => engine.close() };
}

/** MEMLENS_VECTOR_CACHE=off: every run embeds every text (timings, parity checks). */
const vectorCacheOn = () => process.env.MEMLENS_VECTOR_CACHE !== 'off';

export function nodeEmbedderFactory(
  modelRoot: string | null,
  counts: CacheCounts,
): EmbedderFactory {
  return async (model) => {
    const e = await createNodeEmbedder({ model, modelRoot: modelRoot ?? undefined });
    const cacheOn = vectorCacheOn();
    const plain: Embedder = {
      spec: e.spec,
      backend: 'node',
      async embed(texts, { kind }) {
        const { dim, vectors } = await e.embed(texts, { kind });
        // With the cache on, cachedEmbedder counts what it asks this embedder for.
        if (!cacheOn) counts.computed += texts.length;
        return { dim, count: texts.length, vectors };
      },
      dispose: () => e.dispose(),
    };
    if (!cacheOn) return plain;
    const revision = model.revision.replace(/[^\w.-]+/g, '_').slice(0, 48);
    const name = model.id.replace(/[^\w.-]+/g, '_').slice(0, 80);
    // fp32 keeps its file; other dtypes name their runtime, so vectors of onnxruntime-node's
    // int8 kernels (before the CLI ran them on WASM, one text per pass) are never served.
    const runtime = model.dtype === 'fp32' ? '' : '-wasm-solo';
    const file = path.join(vectorCacheDir(), `${name}-${model.dtype}${runtime}-${revision}.jsonl`);
    return cachedEmbedder(plain, model, await VectorFileStore.open(file), counts);
  };
}

/** Seeded pseudo-random unit-free vectors: exercises the cosine path at a model's width, for timing only. */
export function syntheticEmbedderFactory(dims: number): EmbedderFactory {
  return async (model) => {
    const spec = { ...model.spec, dims };
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

export interface ReleaseRun {
  release: ReleaseComparison;
  lines: string[];
}

/** What the run retrieves with: BM25 or the parsed model reference. */
function retrieverRef(opts: CliOptions): ResolvedRetriever {
  return opts.model ?? BM25_ID;
}

/** The model a dense-only run needs (LoCoMo-Plus release mode); parseArgs refuses BM25 there. */
function requireModel(opts: CliOptions): ModelRef {
  if (!opts.model) throw new UsageError(`${opts.retriever} is not a dense model`);
  return opts.model;
}

function factoryFor(opts: CliOptions, counts: CacheCounts): EmbedderFactory {
  return opts.syntheticDims !== null
    ? syntheticEmbedderFactory(opts.syntheticDims)
    : nodeEmbedderFactory(opts.modelRoot, counts);
}

function vectorLine(counts: CacheCounts): string {
  if (counts.cached + counts.computed === 0) return '';
  const where = vectorCacheOn() ? vectorCacheDir().replace(os.homedir(), '~') : 'off';
  const dropped = counts.dropped
    ? `; ${counts.dropped} stored vectors failed their check and were computed again`
    : '';
  return `\nvectors: ${counts.computed} texts embedded, ${counts.cached} from the vector cache (${where})${dropped}`;
}

export async function reproduce(opts: CliOptions, catalog: Catalog): Promise<CliRun> {
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const pool = new RetrieverPool(factoryFor(opts, counts));
  try {
    const retriever = await pool.retriever(retrieverRef(opts), opts.queryPrefix);
    const { protocol, evaluation } = await runProtocol(catalog, opts.spec, retriever);
    const k = opts.k || protocol.defaultK;
    const paper = opts.benchmarkFile === null ? await loadPaperRows(catalog, paperRowsWhere()) : [];
    const targetOf = paperTargetOf(protocol.benchmark);
    const context = { dtype: opts.model?.dtype };
    const figures = figuresOf(evaluation, k, paper, targetOf, context);
    const recomputeSeconds: number[] = [];
    for (let i = 0; i < opts.time; i++) {
      const t0 = performance.now();
      figuresOf(scoreProtocol(protocol, retriever), k, paper, targetOf, context);
      recomputeSeconds.push((performance.now() - t0) / 1000);
    }
    const ranOn =
      opts.model && opts.syntheticDims === null ? ` on ${nodeRuntime(opts.model.dtype)}` : '';
    const head = `${paperDefault(protocol.benchmark).source} · retriever ${opts.retriever} (${choiceLabel(protocol.benchmark, opts.retriever)})${ranOn}`;
    const vectors = vectorLine(counts);
    const ranks = opts.benchmarkFile === null ? [] : ['', targetRankLine(evaluation)];
    const lines = [
      head,
      ...summaryLines(evaluation, k, figures.paper),
      ...ranks,
      ...(vectors ? [vectors] : []),
    ];
    return { protocol, evaluation, figures, k, lines, recomputeSeconds };
  } finally {
    await pool.dispose();
  }
}

export interface CompareRun {
  comparison: Comparison;
  lines: string[];
}

/** What embeds `model`'s texts: the dtype's runtime, or none for synthetic vectors. */
function runtimeOf(opts: CliOptions, model: ModelRef): string | undefined {
  return opts.syntheticDims === null ? nodeRuntime(model.dtype) : undefined;
}

const refLabel = (model: ResolvedRetriever) =>
  model === BM25_ID ? 'BM25' : `${model.spec.label} ${model.dtype}`;

/** The compared refs' models: registry models parsed, brought ones opened (files read, digests recorded). */
async function comparedModels(
  refs: readonly RetrieverRef[],
  dtype: ModelDtype | null,
): Promise<{ models: ResolvedRetriever[]; packs: Map<string, Embedder>; lines: string[] }> {
  const models: ResolvedRetriever[] = [];
  const packs = new Map<string, Embedder>();
  const lines: string[] = [];
  for (const ref of refs) {
    if (!ref.brought) {
      // A compared model runs in Node: its own dtype, else `--dtype`, else its first.
      const defaults = { ...NODE, dtype: dtype ?? undefined };
      models.push(resolveRetrieverRef(registryRef(ref), defaults, '--compare'));
      continue;
    }
    const opened = await openBrought(ref.brought, dtype);
    if (opened.embedder) packs.set(opened.ref.id, opened.embedder);
    models.push(opened.ref);
    lines.push(...opened.lines);
  }
  return { models, packs, lines: lines.length > 0 ? [...lines, ''] : [] };
}

/** Each submission file loaded once, as the page loads it: path → its table. */
async function loadSubmissionFiles(
  catalog: Catalog,
  refs: readonly RetrieverRef[],
): Promise<Map<string, string>> {
  const tables = new Map<string, string>();
  for (const ref of refs) {
    const sub = ref.submission;
    if (sub?.kind !== 'file' || tables.has(sub.path)) continue;
    let bytes: Buffer;
    try {
      bytes = await readInputFile(sub.path, 'submission: (an InMind submission)');
    } catch (err) {
      throw new Error(`${formatRetrieverRef(ref)}: ${errorMessage(err)}`);
    }
    const source = bytesSource(path.basename(sub.path), bytes);
    const plan = planFrom(await inspectUserFile(source));
    if (plan.kind !== SUBMISSION_KIND) {
      throw new Error(
        `${formatRetrieverRef(ref)}: ${sub.path} is not an InMind submission (its first record lacks task_id, system, config, naive, query)`,
      );
    }
    const taken = new Set(tables.values());
    const table = freeTableName(plan.table, taken);
    await loadUserFile(catalog, source, { ...plan, table });
    tables.set(sub.path, table);
  }
  return tables;
}

/** `submission:FILE` without a system: one retriever per system of the file, in file order. */
async function expandSubmissions(
  catalog: Catalog,
  refs: readonly RetrieverRef[],
  tables: ReadonlyMap<string, string>,
): Promise<{ refs: RetrieverRef[]; sources: SubmissionSource[] }> {
  const out: RetrieverRef[] = [];
  const sources: SubmissionSource[] = [];
  for (const ref of refs) {
    const sub = ref.submission;
    const table = sub?.kind === 'file' ? tables.get(sub.path) : undefined;
    if (sub?.kind !== 'file' || table === undefined) {
      out.push(ref);
      continue;
    }
    const systems =
      sub.system === null
        ? (await catalog.run(submissionSystemsQuery(table))).map((s) => s.system)
        : [sub.system];
    for (const system of systems) {
      const one = { kind: 'file' as const, path: sub.path, system };
      const name = formatSubmissionRef(one);
      out.push({ id: name, dtype: null, submission: one });
      sources.push({ name, table, system, whenMissing: '' });
    }
  }
  return { refs: out, sources };
}

/** `--compare`: one protocol build, each retriever on it, then the paired statistics. */
export async function reproduceComparison(
  opts: CliOptions,
  asked: readonly RetrieverRef[],
  catalog: Catalog,
): Promise<CompareRun> {
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const tables = await loadSubmissionFiles(catalog, asked);
  const { refs, sources } = await expandSubmissions(catalog, asked, tables);
  const ranked = refs.filter((r) => !r.submission);
  const { models, packs, lines } = await comparedModels(ranked, opts.dtype);
  const factory = factoryFor(opts, counts);
  const pool = new RetrieverPool(async (model) => packs.get(model.id) ?? factory(model));
  try {
    const full = await buildProtocol(opts.spec, catalog);
    const subs = await openSubmissions(catalog, full, sources);
    const protocol = pairedProtocol(full, subs);
    const compared: ComparedRetriever[] = [];
    for (const ref of refs) {
      const sub = subs.get(formatRetrieverRef(ref));
      if (sub) {
        compared.push(await submissionCompared(protocol, sub));
        continue;
      }
      const model = models[ranked.findIndex((r) => r === ref)];
      const retriever = await pool.retriever(model, opts.queryPrefix);
      const { evaluation } = await scoreRetriever(protocol, retriever);
      const revision = model === BM25_ID ? undefined : model.revision;
      const runtime = model === BM25_ID || packs.has(model.id) ? undefined : runtimeOf(opts, model);
      compared.push({
        ref: formatRetrieverRef(ref),
        label: refLabel(model),
        evaluation,
        revision,
        runtime,
      });
    }
    const comparison = compareRetrievers(compared, {
      tieK: opts.k || protocol.defaultK,
      alpha: opts.alpha,
    });
    const vectors = vectorLine(counts);
    return {
      comparison,
      lines: [...lines, ...comparisonLines(comparison), ...(vectors ? [vectors] : [])],
    };
  } finally {
    await pool.dispose();
  }
}

export async function writeComparisonOutputs(run: CompareRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'comparison.csv': rowsToCsv(comparisonCsvRows(run.comparison)),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}

function formatDeviation(value: number | null): string {
  return value === null ? '—' : value.toExponential(2);
}

export function releaseLines(r: ReleaseComparison): string[] {
  const worst = [...r.rows]
    .filter((row) => row.deviation !== null)
    .sort((a, b) => Math.abs(b.deviation ?? 0) - Math.abs(a.deviation ?? 0))
    .slice(0, 5);
  return [
    `locomo-plus release mode · ${r.modelLabel} (${r.modelId}, ${r.dtype}) · ${r.rows.length} records`,
    '  cosine(cue_dialogue, trigger_query), both embedded whole with no instruction prefix, as rank.py',
    `  released scores.bge vs recomputed: max |deviation| ${formatDeviation(r.maxAbsDeviation)} ` +
      `(${r.worstItem ?? '—'}), mean ${formatDeviation(r.meanAbsDeviation)} over ${r.compared} items`,
    `  comparability: ${r.comparability}${r.differs ? ` (${r.differs})` : ''}`,
    `  ${r.bm25Note}`,
    '',
    'largest deviations (item, relation, released, recomputed):',
    ...worst.map(
      (w) =>
        `  ${w.item_id.padEnd(7)} ${w.relation_type.padEnd(10)} ${w.released?.toFixed(6) ?? '—'} ${w.recomputed.toFixed(6)}`,
    ),
  ];
}

/** LoCoMo-Plus release mode: the release's per-item scores.bge beside ours. */
export async function reproduceRelease(opts: CliOptions, catalog: Catalog): Promise<ReleaseRun> {
  const counts: CacheCounts = { cached: 0, computed: 0 };
  const pool = new RetrieverPool(factoryFor(opts, counts));
  try {
    const pairs = await loadLocomoPlusRelease(catalog);
    const model = requireModel(opts);
    const embedder = await pool.embedder(model);
    const release = await recomputeRelease(pairs, embedder, pool.vectors(model), {
      dtype: model.dtype,
    });
    const vectors = vectorLine(counts);
    return { release, lines: [...releaseLines(release), ...(vectors ? [vectors] : [])] };
  } finally {
    await pool.dispose();
  }
}

function releaseCsv(r: ReleaseComparison): string {
  return rowsToCsv(
    r.rows.map((row) => ({
      ...row,
      model: r.modelId,
      dtype: r.dtype,
      comparability: r.comparability,
    })),
  );
}

export async function writeReleaseOutputs(run: ReleaseRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'release.csv': releaseCsv(run.release),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}

/** paper.csv's rows: every paper number beside ours, with its comparability. */
export function paperCsvRows(run: CliRun): Record<string, string | number | boolean | null>[] {
  return run.figures.paper.map((c) => ({
    paper: c.paper.paper,
    table: c.paper.table,
    row: c.paper.row,
    column: c.paper.column,
    paper_value: c.paper.value_text,
    paper_interval: c.paperInterval,
    series: c.series,
    ours: c.ours,
    ours_lo: c.oursInterval?.lo ?? null,
    ours_hi: c.oursInterval?.hi ?? null,
    comparability: c.comparability,
    difference: c.difference,
    differs: c.differs,
  }));
}

/** One long table for `--format csv`: every recall cell, AUC/KS and paper row, each with its interval. */
export function summaryCsv(run: CliRun): string {
  const { evaluation, k } = run;
  const recall = recallTable(evaluation, k).map((c) => ({
    kind: `recall@${k}`,
    series: c.series,
    level: levelOf(c),
    group: c.group,
    value: c.recall,
    lo: c.interval?.lo ?? null,
    hi: c.interval?.hi ?? null,
    interval: c.method,
    n: c.queries,
    paper_value: null,
    comparability: null,
    differs: null,
  }));
  const separation = separationTable(evaluation).flatMap(({ series, stats, intervals }) =>
    (['auc', 'ks'] as const).map((m) => ({
      kind: m,
      series,
      level: 'series',
      group: null,
      value: stats[m],
      lo: intervals?.[m].lo ?? null,
      hi: intervals?.[m].hi ?? null,
      interval: 'bootstrap',
      n: stats.target.n,
      paper_value: null,
      comparability: null,
      differs: null,
    })),
  );
  const paper = run.figures.paper.map((c) => ({
    kind: `paper: ${c.paper.table} · ${c.paper.row} · ${c.paper.column}`,
    series: c.series,
    level: 'series',
    group: null,
    value: c.ours,
    lo: c.oursInterval?.lo ?? null,
    hi: c.oursInterval?.hi ?? null,
    interval: c.oursInterval ? (c.paper.unit === '%' ? 'percent' : 'fraction') : null,
    n: null,
    paper_value: c.paper.value,
    comparability: c.comparability,
    differs: c.differs,
  }));
  return rowsToCsv([...recall, ...separation, ...paper]);
}

/** `--format json`: the same numbers as the table, structured. */
export function summaryJson(run: CliRun): string {
  const { evaluation, k, protocol } = run;
  return JSON.stringify(
    {
      benchmark: protocol.benchmark,
      source: paperDefault(protocol.benchmark).source,
      retriever: evaluation.retrieverId,
      retriever_choice: choiceLabel(protocol.benchmark, evaluation.retrieverId),
      k,
      notes: protocol.notes,
      scope: Object.fromEntries(protocol.scope ?? []),
      recall: recallTable(evaluation, k),
      separation: separationTable(evaluation).map(({ series, stats, intervals }) => ({
        series,
        auc: stats.auc,
        ks: stats.ks,
        intervals,
        target_n: stats.target.n,
        background_n: stats.background.n,
      })),
      paper: paperCsvRows(run).map((row, i) => ({
        ...row,
        line: comparisonLine(run.figures.paper[i]),
      })),
    },
    null,
    2,
  );
}

export function releaseJson(run: ReleaseRun): string {
  return JSON.stringify(run.release, null, 2);
}

export async function writeOutputs(run: CliRun, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { figures, evaluation } = run;
  const files: Record<string, string> = {
    'summary.txt': `${run.lines.join('\n')}\n`,
    'recall.csv': rowsToCsv(
      recallRowsAllK(evaluation).map(({ interval, series, group, ...c }) => ({
        series,
        level: levelOf({ group }),
        group,
        ...c,
        lo: interval?.lo ?? null,
        hi: interval?.hi ?? null,
      })),
    ),
    'queries.csv': rowsToCsv(figures.queries.map((q) => ({ ...q }))),
    'separation.csv': rowsToCsv(
      figures.separation.map(({ series, stats, intervals }) => ({
        series,
        auc: stats.auc,
        auc_lo: intervals?.auc.lo ?? null,
        auc_hi: intervals?.auc.hi ?? null,
        ks: stats.ks,
        ks_lo: intervals?.ks.lo ?? null,
        ks_hi: intervals?.ks.hi ?? null,
        target_n: stats.target.n,
        target_mean: stats.target.mean,
        target_median: stats.target.median,
        background_n: stats.background.n,
        background_mean: stats.background.mean,
        background_median: stats.background.median,
      })),
    ),
    'histogram.csv': rowsToCsv(figures.histogram.map((b) => ({ ...b }))),
    'paper.csv': rowsToCsv(paperCsvRows(run)),
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

function printRecompute(opts: CliOptions, seconds: readonly number[]): void {
  if (seconds.length === 0) return;
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `\nrecompute every figure from cached ${opts.retriever === BM25_ID ? 'tokens' : 'vectors'}: ` +
      `median ${median.toFixed(3)} s, max ${sorted[sorted.length - 1].toFixed(3)} s over ${sorted.length} runs`,
  );
}

/** Runs the CLI; returns the exit status (0 done, 1 failed, 2 bad command line). */
export async function main(argv: readonly string[]): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`error: ${err.message}\n\n${usage()}`);
    return 2;
  }
  if (parsed.help) {
    console.log(usage());
    return 0;
  }
  if (dryRunRequested()) {
    console.log(DRY_RUN_LINE);
    return 0;
  }
  const opts = parsed;
  const { catalog, close } =
    opts.benchmarkFile === null
      ? await openSiteCatalog(opts.site, { benchmarks: needsBenchmarkTables(opts.spec.benchmark) })
      : await openBenchmarkFileCatalog(opts.benchmarkFile, opts.mapping);
  try {
    const dir =
      opts.out ?? path.join(root, 'dist/reproduce', `${opts.spec.benchmark}-${opts.retriever}`);
    const log = (text: string) =>
      opts.format === 'table' ? console.log(text) : console.error(text);
    if (opts.syntheticDims !== null) log('synthetic vectors: timing only, numbers meaningless\n');
    if (opts.compare !== null) {
      const run = await reproduceComparison(opts, opts.compare, catalog);
      if (opts.format === 'table') console.log(run.lines.join('\n'));
      else if (opts.format === 'json') console.log(JSON.stringify(run.comparison, null, 2));
      else process.stdout.write(rowsToCsv(comparisonCsvRows(run.comparison)));
      const names = opts.compare
        .map(formatRetrieverRef)
        .join('-')
        .replace(/[^\w.-]+/g, '_');
      const written = await writeComparisonOutputs(
        run,
        opts.out ?? path.join(root, 'dist/reproduce', `${opts.spec.benchmark}-compare-${names}`),
      );
      log(
        `\nwrote ${written.length} files to ${path.relative(process.cwd(), path.dirname(written[0])) || '.'}`,
      );
      return 0;
    }
    if (isRelease(opts.spec)) {
      const run = await reproduceRelease(opts, catalog);
      if (opts.format === 'table') console.log(run.lines.join('\n'));
      else if (opts.format === 'json') console.log(releaseJson(run));
      else process.stdout.write(releaseCsv(run.release));
      const written = await writeReleaseOutputs(run, dir);
      log(`\nwrote ${written.length} files to ${path.relative(process.cwd(), dir) || '.'}`);
      return 0;
    }
    const run = await reproduce(opts, catalog);
    if (opts.format === 'table') console.log(run.lines.join('\n'));
    else if (opts.format === 'json') console.log(summaryJson(run));
    else process.stdout.write(summaryCsv(run));
    if (opts.format === 'table') printRecompute(opts, run.recomputeSeconds);
    const written = await writeOutputs(run, dir);
    if (opts.benchmarkFile !== null) written.push(await writeDeclaration(catalog, opts, dir));
    log(`\nwrote ${written.length} files to ${path.relative(process.cwd(), dir) || '.'}`);
    return 0;
  } finally {
    await close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`error: ${errorMessage(err)}`);
      process.exit(1);
    },
  );
}
