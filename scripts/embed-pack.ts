/**
 * Writes a vector pack (Parquet): a corpus's embeddings, to import on the Embeddings page, or a
 * benchmark's protocol texts, for `npm run reproduce -- --compare pack:FILE`.
 * Usage: npm run embed:pack -- --model tiny-bert --out pack.parquet
 *          [--jsonl FILE --field NAME] [--kind document|query] [--dtype fp32] [--model-root DIR]
 *        npm run embed:pack -- --benchmark inmind --model minilm --out inmind-minilm.parquet
 * Without --jsonl or --benchmark, the corpus is the LME-s background turns from public/data.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MODEL_DTYPES, type ModelDtype } from '../src/lib/embed/model-registry.ts';
import { parseModelRef, type ModelRef } from '../src/lib/embed/model-ref.ts';
import { parseBroughtRef, type BroughtRef } from '../src/lib/embed/brought-model.ts';
import { protocolEntries, protocolRun } from '../src/lib/benchmarks/registry.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { repoRoot } from './lib/site-build.ts';
import { benchmarkPack, corpusTexts, embedPack, type CorpusSource } from './lib/embed-pack.ts';
import { openBrought } from './lib/brought.ts';
import { checkCommandLine } from './lib/cli.ts';

checkCommandLine({
  usage: `Usage: npm run embed:pack -- --out FILE [options]

Writes a vector pack (Parquet). Without --jsonl or --benchmark, the embeddings of the LME-s
background turns from public/data, to import on the Embeddings page. With --benchmark, the texts
a comparison of that protocol asks the model for (documents and queries, at the paper's defaults
unless the options below say otherwise), for npm run reproduce -- --compare pack:FILE.

Options:
  --out FILE         the Parquet file to write (required)
  --model M          model id, or onnx:PATH[:DTYPE] (a transformers.js export with its
                     sentence-transformers files) or hub:OWNER/NAME@COMMIT[:DTYPE] (the same on
                     the Hub at a 40-hex commit, from $MEMLENS_HUB_URL) (default tiny-bert)
  --benchmark B      a protocol's texts instead (${protocolEntries()
    .map((p) => p.id)
    .join(', ')})
  --target T         with --benchmark, InMind: chunk | user
  --background B     with --benchmark, InMind: raw | content
  --query-prefix     with --benchmark: embed queries with the model's query prefix
  --no-query-prefix  with --benchmark: embed queries as plain documents
  --site DIR         with --benchmark: the site folder with data/ (default public/)
  --jsonl FILE       a JSON Lines corpus instead
  --field NAME       its text field (default text)
  --kind K           document | query (default document)
  --dtype D          fp32 | fp16 | q8 | q4 (default the model's first)
  --model-root DIR   folder holding model directories
  -h, --help         print this and exit`,
  values: [
    '--out',
    '--model',
    '--benchmark',
    '--target',
    '--background',
    '--site',
    '--jsonl',
    '--field',
    '--kind',
    '--dtype',
    '--model-root',
  ],
  flags: ['--query-prefix', '--no-query-prefix'],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(message: string): never {
  console.error(`error: ${message} (npm run embed:pack -- --help)`);
  process.exit(2);
}

function dtypeArg(): ModelDtype | undefined {
  const value = arg('dtype');
  if (value === undefined) return undefined;
  const found = MODEL_DTYPES.find((d) => d === value);
  if (!found) fail(`--dtype must be one of ${MODEL_DTYPES.join(', ')}`);
  return found;
}

/** `--model`: a registry model, or a model the reader brings; a bad reference exits 2. */
function modelText(text: string): ModelRef | BroughtRef {
  let brought: BroughtRef | null;
  try {
    brought = parseBroughtRef(text);
  } catch (err) {
    fail(`--model: ${errorMessage(err)}`);
  }
  if (brought?.kind === 'pack')
    fail('--model takes a model id, onnx:PATH or hub:OWNER/NAME@COMMIT');
  try {
    return brought ?? parseModelRef(text, { dtype: dtypeArg(), backend: 'node' }, '--model');
  } catch (err) {
    fail(errorMessage(err));
  }
}

/** A brought model's files read (or downloaded) and their sha256 printed. */
async function modelArg(text: string): Promise<ModelRef> {
  const parsed = modelText(text);
  if (!('kind' in parsed)) return parsed;
  const opened = await openBrought(parsed, dtypeArg() ?? null);
  console.log(opened.lines.join('\n'));
  return opened.ref;
}

function benchmarkArg(): string | undefined {
  const benchmark = arg('benchmark');
  if (benchmark === undefined) return undefined;
  const ids = protocolEntries().map((p) => p.id);
  if (!ids.includes(benchmark) || !protocolRun(benchmark)) {
    fail(`--benchmark must be one of ${ids.filter((id) => protocolRun(id)).join(', ')}`);
  }
  return benchmark;
}

function viewParams(): Record<string, string> {
  const params: Record<string, string> = {};
  const target = arg('target');
  const background = arg('background');
  if (target !== undefined) {
    if (target !== 'chunk' && target !== 'user') fail('--target must be chunk or user');
    params.target = target;
  }
  if (background !== undefined) {
    if (background !== 'raw' && background !== 'content')
      fail('--background must be raw or content');
    params.bg = background;
  }
  if (process.argv.includes('--query-prefix')) params.prefix = 'on';
  if (process.argv.includes('--no-query-prefix')) params.prefix = 'off';
  return params;
}

const out = arg('out');
if (!out) fail('--out FILE is required');
const benchmark = benchmarkArg();
if (benchmark !== undefined && arg('jsonl') !== undefined) fail('--benchmark or --jsonl, not both');
let model: ModelRef;
try {
  model = await modelArg(arg('model') ?? 'tiny-bert');
} catch (err) {
  console.error(`error: ${errorMessage(err)}`);
  process.exit(1);
}
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const kib = (bytes: ArrayBuffer) => (bytes.byteLength / 1024).toFixed(0);
if (benchmark !== undefined) {
  const site = arg('site');
  const pack = await benchmarkPack({
    model,
    benchmark,
    params: viewParams(),
    site: site ? path.resolve(site) : path.join(repoRoot, 'public'),
    modelRoot: arg('model-root'),
  });
  await writeFile(out, new Uint8Array(pack.bytes));
  console.log(
    `${out}: ${pack.rows} vectors of ${benchmark}'s texts, ${pack.dim} dims, ${model.id} ${model.dtype} (${model.revision}); ${pack.counts.computed} embedded, ${pack.counts.cached} from the vector cache; ${kib(pack.bytes)} KiB in ${seconds()} s`,
  );
} else {
  const kind = arg('kind') === 'query' ? 'query' : 'document';
  const jsonl = arg('jsonl');
  const source: CorpusSource = jsonl
    ? { kind: 'jsonl', file: jsonl, field: arg('field') ?? 'text' }
    : { kind: 'lme-background', dataRoot: path.join(repoRoot, 'public/data') };
  const texts = await corpusTexts(source);
  const pack = await embedPack({ model, kind, texts, modelRoot: arg('model-root') });
  await writeFile(out, new Uint8Array(pack.bytes));
  console.log(
    `${out}: ${pack.rows} vectors (${texts.length} texts), ${pack.dim} dims, ${model.id}, ${kind}; ${kib(pack.bytes)} KiB in ${seconds()} s`,
  );
}
