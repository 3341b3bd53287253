// Node (onnxruntime-node) vectors of a text list, computed once per `npm test` run: the unit and
// the e2e parity files both check against the same real-model vectors, and recomputing them took
// about a minute each time. The store is the run's own temporary folder (set by
// scripts/run-tests.ts), never a cache kept across runs, so each run still embeds with today's code.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelDtype } from '../../src/lib/embed/model-registry.ts';
import { createNodeEmbedder, type Embeddings } from '../../src/lib/embed/node-embedder.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';

export const RUN_DIR_ENV = 'MEMLENS_TEST_RUN_DIR';

function fileFor(dir: string, modelId: string, dtype: ModelDtype, texts: readonly string[]) {
  const hash = createHash('sha256');
  hash.update(`${modelId}\0${dtype}\0${texts.length}\0`);
  for (const text of texts) hash.update(`${text}\0`);
  return path.join(dir, `${modelId}-${dtype}-${hash.digest('hex')}.f32`);
}

async function compute(modelId: string, dtype: ModelDtype, texts: readonly string[]) {
  const model = parseModelRef(modelId, { dtype, backend: 'node' }, 'runNodeVectors');
  const embedder = await createNodeEmbedder({ model });
  try {
    return await embedder.embed(texts, { kind: 'document' });
  } finally {
    await embedder.dispose();
  }
}

async function readStored(file: string, count: number): Promise<Embeddings | null> {
  const bytes = await readFile(file).catch(() => null);
  if (!bytes || bytes.length === 0 || bytes.length % (4 * count) !== 0) return null;
  const vectors = new Float32Array(bytes.length / 4);
  new Uint8Array(vectors.buffer).set(bytes);
  return { dim: vectors.length / count, vectors };
}

/**
 * Rows `rows` of the vectors of `texts` when this run has stored them already (another file
 * computed them with runNodeVectors), else null: a file that needs a few rows of the parity
 * corpus reads them instead of embedding them again. Only where a row's bits do not depend on
 * its neighbours: q8 runs one text per pass (the 120 rows q8-wasm-parity reads from the 1,200 of
 * the corpus equal, bit for bit, the same 120 embedded alone).
 */
export async function storedRunRows(
  modelId: string,
  dtype: ModelDtype,
  texts: readonly string[],
  rows: readonly number[],
): Promise<Embeddings | null> {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir) return null;
  const all = await readStored(fileFor(dir, modelId, dtype, texts), texts.length);
  if (!all) return null;
  const vectors = new Float32Array(rows.length * all.dim);
  rows.forEach((r, i) =>
    vectors.set(all.vectors.subarray(r * all.dim, (r + 1) * all.dim), i * all.dim),
  );
  return { dim: all.dim, vectors };
}

/** Document vectors of `texts` by `modelId` at `dtype` in onnxruntime-node, shared within a run. */
export async function runNodeVectors(
  modelId: string,
  dtype: ModelDtype,
  texts: readonly string[],
): Promise<Embeddings> {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir) return compute(modelId, dtype, texts);
  const file = fileFor(dir, modelId, dtype, texts);
  const stored = await readStored(file, texts.length);
  if (stored) return stored;
  const fresh = await compute(modelId, dtype, texts);
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.part`;
  await writeFile(
    partial,
    new Uint8Array(fresh.vectors.buffer, fresh.vectors.byteOffset, fresh.vectors.byteLength),
  );
  await rename(partial, file);
  return fresh;
}
