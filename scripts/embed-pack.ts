/**
 * Writes a vector pack (Parquet) of a corpus's embeddings, to import on the Embeddings page.
 * Usage: npm run embed:pack -- --model tiny-bert --out pack.parquet
 *          [--jsonl FILE --field NAME] [--kind document|query] [--dtype fp32] [--model-root DIR]
 * Without --jsonl, the corpus is the LME-s background turns from public/data (the page's corpus).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MODEL_DTYPES, type ModelDtype } from '../src/lib/embed/model-registry.ts';
import { parseModelRef } from '../src/lib/embed/model-ref.ts';
import { repoRoot } from './lib/site-build.ts';
import { corpusTexts, embedPack, type CorpusSource } from './lib/embed-pack.ts';
import { checkCommandLine } from './lib/cli.ts';

checkCommandLine({
  usage: `Usage: npm run embed:pack -- --out FILE [options]

Writes a vector pack (Parquet) of a corpus's embeddings, to import on the Embeddings page.
Without --jsonl, the corpus is the LME-s background turns from public/data.

Options:
  --out FILE         the Parquet file to write (required)
  --model ID         model (default tiny-bert)
  --jsonl FILE       a JSON Lines corpus instead
  --field NAME       its text field (default text)
  --kind K           document | query (default document)
  --dtype D          fp32 | fp16 | q8 | q4 (default the model's first)
  --model-root DIR   folder holding model directories
  -h, --help         print this and exit`,
  values: ['--out', '--model', '--jsonl', '--field', '--kind', '--dtype', '--model-root'],
});

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function dtypeArg(): ModelDtype | undefined {
  const value = arg('dtype');
  if (value === undefined) return undefined;
  const found = MODEL_DTYPES.find((d) => d === value);
  if (!found) throw new Error(`--dtype must be one of ${MODEL_DTYPES.join(', ')}`);
  return found;
}

const out = arg('out');
const model = parseModelRef(
  arg('model') ?? 'tiny-bert',
  { dtype: dtypeArg(), backend: 'node' },
  '--model',
);
const kind = arg('kind') === 'query' ? 'query' : 'document';
const jsonl = arg('jsonl');
if (!out) {
  console.error('error: --out FILE is required (npm run embed:pack -- --help)');
  process.exit(2);
}
const source: CorpusSource = jsonl
  ? { kind: 'jsonl', file: jsonl, field: arg('field') ?? 'text' }
  : { kind: 'lme-background', dataRoot: path.join(repoRoot, 'public/data') };
const texts = await corpusTexts(source);
const started = performance.now();
const pack = await embedPack({
  model,
  kind,
  texts,
  modelRoot: arg('model-root'),
});
await writeFile(out, new Uint8Array(pack.bytes));
const seconds = (performance.now() - started) / 1000;
console.log(
  `${out}: ${pack.rows} vectors (${texts.length} texts), ${pack.dim} dims, ${model.id}, ${kind}; ${(pack.bytes.byteLength / 1024).toFixed(0)} KiB in ${seconds.toFixed(1)} s`,
);
