// Writes the probe reference vectors the page checks each backend against (public/probes/) and
// pins them in data/probes.json: fp32 of a package-sourced model by sentence-transformers (the
// reference stack, .venv), other dtypes and test models by the CLI's own runtime (q8: onnxruntime-web
// WASM in Node, as the page runs it). Hub-sourced models (BGE) are made where the Hub is reachable.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCommandLine } from './lib/cli.ts';
import { hubReferenceEmbeddings, referenceEmbeddings } from './lib/python-reference.ts';
import { exists } from './lib/files.ts';
import { repoRoot } from './lib/site-build.ts';
import { sha256Hex } from '../src/lib/common/sha256.ts';
import { createNodeEmbedder } from '../src/lib/embed/node-embedder.ts';
import { parseModelRef } from '../src/lib/embed/model-ref.ts';
import {
  listModelSpecs,
  localModelRoot,
  modelLoadId,
  weightsFile,
  type ModelDtype,
  type ModelSpec,
} from '../src/lib/embed/model-registry.ts';
import { nodeRuntime } from '../src/lib/embed/node-runtime.ts';
import { parseProbeRegistry, type ProbeSet } from '../src/lib/embed/probe-registry.ts';

const REGISTRY = 'data/probes.json';
const OUT_DIR = 'public/probes';
/** Before any measurement says otherwise (docs/reliability.md has the figures). */
const DEFAULT_THRESHOLD: Record<string, number> = { fp32: 0.9999, q8: 0.99 };

async function referenceOf(spec: ModelSpec, dtype: ModelDtype, texts: readonly string[]) {
  if (dtype === 'fp32' && spec.source.kind === 'pypi') {
    const run = await referenceEmbeddings(spec, texts, 'sentence-transformers');
    return { vectors: run.vectors, reference: 'sentence-transformers 6.2.0' };
  }
  if (dtype === 'fp32' && spec.source.kind === 'hub') {
    const run = hubReferenceEmbeddings(spec, texts);
    return { vectors: run.vectors, reference: 'sentence-transformers 6.2.0' };
  }
  const model = parseModelRef(spec.id, { dtype, backend: 'node' }, 'make-probes');
  const embedder = await createNodeEmbedder({ model });
  try {
    const { vectors } = await embedder.embed(texts, { kind: 'document' });
    const runtime = nodeRuntime(dtype) === 'onnxruntime-node cpu' ? 'onnxruntime-node' : 'WASM';
    return { vectors, reference: `${runtime} ${dtype} (Node)` };
  } finally {
    await embedder.dispose();
  }
}

async function servedWeights(spec: ModelSpec, dtype: ModelDtype): Promise<string> {
  const file = path.join(localModelRoot(spec), modelLoadId(spec), weightsFile(spec, dtype).path);
  return sha256Hex(await readFile(path.resolve(repoRoot, file)));
}

async function makeSet(spec: ModelSpec, dtype: ModelDtype, texts: string[], old?: ProbeSet) {
  const { vectors, reference } = await referenceOf(spec, dtype, texts);
  const bytes = new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const file = `probes/${spec.id}-${dtype}.f32`;
  await writeFile(path.join(repoRoot, 'public', file), bytes);
  const set: ProbeSet = {
    model: spec.id,
    dtype,
    file,
    sha256: await sha256Hex(bytes),
    weights: await servedWeights(spec, dtype),
    reference,
    threshold: old?.threshold ?? DEFAULT_THRESHOLD[dtype] ?? 0.99,
  };
  console.log(`${set.sha256.slice(0, 12)}  ${file}  (${texts.length} texts, ${reference})`);
  return set;
}

async function main(): Promise<void> {
  checkCommandLine({
    usage: `Usage: npm run probes -- [--only id,id]

Writes ${OUT_DIR}/<model>-<dtype>.f32 for each model (default: all but the Hub-sourced ones, whose
fp32 reference needs the Hub: the verify workflow makes BGE-small's with --only bge-small) and pins
them in ${REGISTRY} (texts, the WebGPU subset and thresholds are kept).

Options:
  --only id,id   these models only
  -h, --help     print this and exit`,
    values: ['--only'],
  });
  const argv = process.argv.slice(2);
  const only = argv.includes('--only') ? (argv[argv.indexOf('--only') + 1] ?? '').split(',') : null;
  const registryPath = path.join(repoRoot, REGISTRY);
  const old = parseProbeRegistry(JSON.parse(await readFile(registryPath, 'utf8')));
  await mkdir(path.join(repoRoot, OUT_DIR), { recursive: true });
  const sets: ProbeSet[] = [];
  for (const spec of listModelSpecs()) {
    if (only ? !only.includes(spec.id) : spec.source.kind === 'hub') {
      if (!only)
        console.log(`${spec.id}: Hub-sourced, made by the verify workflow (--only ${spec.id})`);
      continue;
    }
    const dir = path.join(repoRoot, localModelRoot(spec), modelLoadId(spec));
    if (!(await exists(dir))) throw new Error(`${spec.id}: no ${dir}; npm run models fetches it`);
    for (const dtype of spec.dtypes) {
      const before = old.sets.find((s) => s.model === spec.id && s.dtype === dtype);
      sets.push(await makeSet(spec, dtype, old.texts, before));
    }
  }
  const kept = old.sets.filter(
    (s) => !sets.some((n) => n.model === s.model && n.dtype === s.dtype),
  );
  const registry = { ...old, sets: [...sets, ...kept] };
  await writeFile(registryPath, `${JSON.stringify(registry, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
