/**
 * Recomputes a benchmark's retrieval protocol from the site's data, with the page's own modules.
 * `npm run reproduce -- --help` prints every option. Data: the site folder (default public/,
 * filled by `npm run data`) loaded into DuckDB-WASM by the app's own loaders.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rowsToCsv } from '../src/lib/common/csv-export.ts';
import type { Catalog } from '../src/lib/db/catalog.ts';
import {
  MODEL_DTYPES,
  filesForDtype,
  listModelSpecs,
  type ModelDtype,
  type ModelSpec,
} from '../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../src/lib/embed/model-ref.ts';
import { DEFAULT_SPEC, type ProtocolSpec } from '../src/lib/protocols/build.ts';
import { paperDefault } from '../src/lib/protocols/defaults.ts';
import {
  applyOptions,
  isReleaseSpec,
  optionForFlag,
  optionQueryPrefix,
  optionUsage,
} from '../src/lib/benchmarks/options.ts';
import { BM25_ID, parseRetriever } from '../src/lib/protocol-kit/pool.ts';
import { comparisonCsvRows } from '../src/lib/protocol-kit/compare-report.ts';
import {
  formatRetrieverRef,
  parseRetrieverRef,
  resolveRetrieverRef,
  type RetrieverRef,
} from '../src/lib/protocol-kit/retriever-ref.ts';
import { BENCHMARK_DEFS, protocolEntries, protocolRun } from '../src/lib/benchmarks/registry.ts';
import type { BenchmarkDef } from '../src/lib/benchmarks/benchmark-def.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { DRY_RUN_LINE, dryRunRequested } from './lib/cli.ts';
import { userTableName } from '../src/lib/userdata/table-name.ts';
import {
  needsBenchmarkTables,
  openBenchmarkFileCatalog,
  openSiteCatalog,
  writeDeclaration,
} from './lib/reproduce-catalog.ts';
import { reproduceComparison, writeComparisonOutputs } from './lib/reproduce-compare.ts';
import {
  printRecompute,
  releaseCsv,
  releaseJson,
  summaryCsv,
  summaryJson,
  writeOutputs,
  writeReleaseOutputs,
} from './lib/reproduce-output.ts';
import { releaseRun, reproduce, type ReleaseRun } from './lib/reproduce-run.ts';

export {
  needsBenchmarkTables,
  openBenchmarkFileCatalog,
  openSiteCatalog,
  reproduce,
  reproduceComparison,
  summaryCsv,
  summaryJson,
  writeDeclaration,
  writeOutputs,
};
export type { CliRun, ReleaseRun } from './lib/reproduce-run.ts';
export type { CompareRun } from './lib/reproduce-compare.ts';

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

/** The model a dense-only run needs (LoCoMo-Plus release mode); parseArgs refuses BM25 there. */
function requireModel(opts: CliOptions): ModelRef {
  if (!opts.model) throw new UsageError(`${opts.retriever} is not a dense model`);
  return opts.model;
}

/** LoCoMo-Plus release mode: the release's per-item scores.bge beside ours. */
export async function reproduceRelease(opts: CliOptions, catalog: Catalog): Promise<ReleaseRun> {
  return releaseRun(opts, requireModel(opts), catalog);
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
