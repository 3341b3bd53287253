// data/probes.json: the probe texts and, per model and dtype, the reference vectors' file (served
// under `probes/`, pinned by sha256) with the weights they were made from and the threshold.
// `npm run probes` (scripts/make-probes.ts) writes it. WebGPU probes the `webgpu` rows only: on a
// software adapter (SwiftShader) all 24 texts, padded to the longest (79 tokens), took minutes.
import probesJson from '../../../data/probes.json' with { type: 'json' };
import { MODEL_DTYPES, type ModelDtype } from './model-registry.ts';
import type { WebBackend } from './backend-choice.ts';

export const PROBE_FORMAT = 'memlens-probes';

export interface ProbeSet {
  model: string;
  dtype: ModelDtype;
  /** Relative to the site's base, e.g. `probes/minilm-fp32.f32` (float32, little-endian, row-major). */
  file: string;
  sha256: string;
  /** The sha256 of the weights file the reference stands for: other weights are not judged by it. */
  weights: string;
  reference: string;
  threshold: number;
}

export interface ProbeRegistry {
  format: typeof PROBE_FORMAT;
  texts: string[];
  /** The rows of `texts` WebGPU embeds (short ones, one padded batch of ≤ 25 tokens in fp32). */
  webgpu: number[];
  sets: ProbeSet[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseSet(raw: unknown, where: string): ProbeSet {
  if (!isRecord(raw)) throw new Error(`${where}: not an object`);
  const str = (key: string): string => {
    const v = raw[key];
    if (typeof v !== 'string' || v === '') throw new Error(`${where}: "${key}" is not a string`);
    return v;
  };
  const dtype = MODEL_DTYPES.find((d) => d === raw.dtype);
  if (!dtype) throw new Error(`${where}: "dtype" is not one of ${MODEL_DTYPES.join(', ')}`);
  const { threshold } = raw;
  if (typeof threshold !== 'number' || !(threshold > 0 && threshold <= 1)) {
    throw new Error(`${where}: "threshold" is not a number in (0, 1]`);
  }
  const sha256 = str('sha256');
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`${where}: "sha256" is not 64 hex digits`);
  const set = { model: str('model'), dtype, file: str('file'), sha256, weights: str('weights') };
  return { ...set, reference: str('reference'), threshold };
}

function parseRows(raw: unknown, count: number, where: string): number[] {
  const ok = (r: unknown): r is number =>
    Number.isInteger(r) && Number(r) >= 0 && Number(r) < count;
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(ok) || new Set(raw).size < raw.length) {
    throw new Error(`${where}: not a list of distinct rows of "texts" (0 to ${count - 1})`);
  }
  return raw.filter(ok);
}

export function parseProbeRegistry(raw: unknown, where = 'data/probes.json'): ProbeRegistry {
  if (!isRecord(raw) || raw.format !== PROBE_FORMAT) {
    throw new Error(`${where}: "format" is not "${PROBE_FORMAT}"`);
  }
  const { texts, sets } = raw;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
    throw new Error(`${where}: "texts" is not a list of strings`);
  }
  if (!Array.isArray(sets)) throw new Error(`${where}: "sets" is not a list`);
  return {
    format: PROBE_FORMAT,
    texts: texts.map(String),
    webgpu: parseRows(raw.webgpu, texts.length, `${where} "webgpu"`),
    sets: sets.map((s, i) => parseSet(s, `${where} sets[${i}]`)),
  };
}

export const PROBES: ProbeRegistry = parseProbeRegistry(probesJson);

/** The set that judges `model` at `dtype` with these weights; null when there is none. */
export function probeSetFor(
  model: string,
  dtype: ModelDtype,
  weightsSha256: string,
  registry: ProbeRegistry = PROBES,
): ProbeSet | null {
  const set = registry.sets.find((s) => s.model === model && s.dtype === dtype);
  return set && set.weights === weightsSha256 ? set : null;
}

/** The probe's rows for `backend`: every text on WASM, the `webgpu` subset on WebGPU. */
export function probeRows(backend: WebBackend, registry: ProbeRegistry = PROBES): number[] {
  return backend === 'webgpu' ? registry.webgpu : registry.texts.map((_, i) => i);
}

/** The reference file's float32 rows, checked against the texts' count and the model's dim. */
export function probeVectors(bytes: Uint8Array, texts: number, dim: number, file: string) {
  if (bytes.byteLength !== texts * dim * 4) {
    throw new Error(`${file}: ${bytes.byteLength} bytes, not ${texts} × ${dim} float32`);
  }
  const out = new Float32Array(texts * dim);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/** `rows` of a row-major `[n, dim]` matrix, in that order. */
export function selectRows(vectors: Float32Array, rows: readonly number[], dim: number) {
  const out = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => out.set(vectors.subarray(r * dim, (r + 1) * dim), i * dim));
  return out;
}
