// An independent float64 forward pass of the tiny BERT: no onnxruntime, only the weights read
// back out of the ONNX initializers. Tests compare transformers.js + onnxruntime against it.
import onnxProto from 'onnx-proto';
import { pool, type HiddenStates } from '../../src/lib/embed/pooling.ts';
import type { Pooling } from '../../src/lib/embed/model-registry.ts';
import { layerParts, weightNames, type BertDims } from '../../scripts/lib/tiny-bert/weights.ts';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
// Same additive mask value as the ONNX graph / HF BERT.
const MASK_VALUE = -10000;

interface Tensor64 {
  dims: number[];
  data: Float64Array;
}

export interface ReferenceBert {
  dims: BertDims;
  tensors: ReadonlyMap<string, Tensor64>;
}

export interface TokenizedBatch {
  inputIds: readonly (readonly number[])[];
  /** Defaults to all ones. */
  attentionMask?: readonly (readonly number[])[];
  /** Defaults to all zeros. */
  tokenTypeIds?: readonly (readonly number[])[];
}

type Long = { toNumber(): number };
const toNumber = (value: number | Long): number =>
  typeof value === 'number' ? value : value.toNumber();

function decodeFloat32(raw: Uint8Array): Float64Array {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out = new Float64Array(raw.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export function readOnnxFloatInitializers(onnxBytes: Uint8Array): Map<string, Tensor64> {
  const model = onnx.ModelProto.decode(onnxBytes);
  const tensors = new Map<string, Tensor64>();
  for (const init of model.graph?.initializer ?? []) {
    if (init.dataType !== FLOAT || !init.rawData || !init.name) continue;
    const dims = (init.dims ?? []).map(toNumber);
    tensors.set(init.name, { dims, data: decodeFloat32(init.rawData) });
  }
  return tensors;
}

function configNumber(config: Record<string, unknown>, key: string): number {
  const value = config[key];
  if (typeof value !== 'number') throw new Error(`config.json: "${key}" must be a number`);
  return value;
}

export function dimsFromConfig(config: Record<string, unknown>): BertDims {
  return {
    vocabSize: configNumber(config, 'vocab_size'),
    hidden: configNumber(config, 'hidden_size'),
    heads: configNumber(config, 'num_attention_heads'),
    layers: configNumber(config, 'num_hidden_layers'),
    intermediate: configNumber(config, 'intermediate_size'),
    maxPositions: configNumber(config, 'max_position_embeddings'),
    typeVocabSize: configNumber(config, 'type_vocab_size'),
    layerNormEps: configNumber(config, 'layer_norm_eps'),
  };
}

export function loadReferenceBert(
  onnxBytes: Uint8Array,
  config: Record<string, unknown>,
): ReferenceBert {
  return { dims: dimsFromConfig(config), tensors: readOnnxFloatInitializers(onnxBytes) };
}

function weight(model: ReferenceBert, name: string, size: number): Float64Array {
  const tensor = model.tensors.get(name);
  if (!tensor) throw new Error(`ONNX model has no initializer "${name}"`);
  if (tensor.data.length !== size) {
    throw new Error(`initializer "${name}" has ${tensor.data.length} values, expected ${size}`);
  }
  return tensor.data;
}

/** x [rows, n] · W [n, m] + b [m]. */
function linear(
  model: ReferenceBert,
  x: Float64Array,
  rows: number,
  prefix: string,
  n: number,
  m: number,
) {
  const w = weight(model, `${prefix}.weight`, n * m);
  const b = weight(model, `${prefix}.bias`, m);
  const out = new Float64Array(rows * m);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < m; j++) {
      let acc = b[j];
      for (let k = 0; k < n; k++) acc += x[r * n + k] * w[k * m + j];
      out[r * m + j] = acc;
    }
  }
  return out;
}

function layerNorm(
  model: ReferenceBert,
  x: Float64Array,
  rows: number,
  prefix: string,
): Float64Array {
  const { hidden, layerNormEps } = model.dims;
  const gamma = weight(model, `${prefix}.weight`, hidden);
  const beta = weight(model, `${prefix}.bias`, hidden);
  const out = new Float64Array(x.length);
  for (let r = 0; r < rows; r++) {
    const row = x.subarray(r * hidden, (r + 1) * hidden);
    const mean = row.reduce((a, v) => a + v, 0) / hidden;
    const variance = row.reduce((a, v) => a + (v - mean) ** 2, 0) / hidden;
    const scale = 1 / Math.sqrt(variance + layerNormEps);
    for (let d = 0; d < hidden; d++)
      out[r * hidden + d] = (row[d] - mean) * scale * gamma[d] + beta[d];
  }
  return out;
}

/** erf(x) = 2/√π · e^(−x²) · Σ 2ⁿx^(2n+1)/(1·3·…·(2n+1)): all terms positive, no cancellation. */
export function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax > 6) return Math.sign(x); // 1 − erf(6) ≈ 2e-17, below float64 resolution
  let term = ax;
  let sum = ax;
  for (let n = 1; term > sum * 1e-17; n++) {
    term *= (2 * ax * ax) / (2 * n + 1);
    sum += term;
  }
  return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * Math.exp(-ax * ax) * sum;
}

const gelu = (x: number): number => 0.5 * x * (1 + erf(x / Math.SQRT2));

function add(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((v, i) => v + b[i]);
}

function embed(model: ReferenceBert, ids: readonly number[], types: readonly number[]) {
  const { hidden, vocabSize, maxPositions, typeVocabSize } = model.dims;
  const words = weight(model, weightNames.wordEmbeddings, vocabSize * hidden);
  const positions = weight(model, weightNames.positionEmbeddings, maxPositions * hidden);
  const tokenTypes = weight(model, weightNames.tokenTypeEmbeddings, typeVocabSize * hidden);
  const x = new Float64Array(ids.length * hidden);
  ids.forEach((id, s) => {
    for (let d = 0; d < hidden; d++) {
      x[s * hidden + d] =
        words[id * hidden + d] + tokenTypes[types[s] * hidden + d] + positions[s * hidden + d];
    }
  });
  return layerNorm(model, x, ids.length, weightNames.embeddingsNorm);
}

function attention(
  model: ReferenceBert,
  x: Float64Array,
  mask: readonly number[],
  prefix: (p: string) => string,
) {
  const { hidden, heads } = model.dims;
  const seq = mask.length;
  const headSize = hidden / heads;
  const q = linear(model, x, seq, prefix(layerParts.query), hidden, hidden);
  const k = linear(model, x, seq, prefix(layerParts.key), hidden, hidden);
  const v = linear(model, x, seq, prefix(layerParts.value), hidden, hidden);
  const context = new Float64Array(seq * hidden);
  const scores = new Float64Array(seq);
  for (let h = 0; h < heads; h++) {
    const base = h * headSize;
    for (let i = 0; i < seq; i++) {
      for (let j = 0; j < seq; j++) {
        let dot = 0;
        for (let c = 0; c < headSize; c++)
          dot += q[i * hidden + base + c] * k[j * hidden + base + c];
        scores[j] = dot / Math.sqrt(headSize) + (1 - mask[j]) * MASK_VALUE;
      }
      const max = Math.max(...scores);
      const weights = scores.map((s) => Math.exp(s - max));
      const total = weights.reduce((a, w) => a + w, 0);
      for (let j = 0; j < seq; j++) {
        const p = weights[j] / total;
        for (let c = 0; c < headSize; c++)
          context[i * hidden + base + c] += p * v[j * hidden + base + c];
      }
    }
  }
  return context;
}

function encoderLayer(
  model: ReferenceBert,
  x: Float64Array,
  mask: readonly number[],
  index: number,
) {
  const { hidden, intermediate } = model.dims;
  const seq = mask.length;
  const prefix = (part: string) => weightNames.layer(index, part);
  const context = attention(model, x, mask, prefix);
  const projected = linear(model, context, seq, prefix(layerParts.attentionOut), hidden, hidden);
  const normed = layerNorm(model, add(projected, x), seq, prefix(layerParts.attentionNorm));
  const inner = linear(
    model,
    normed,
    seq,
    prefix(layerParts.intermediate),
    hidden,
    intermediate,
  ).map(gelu);
  const out = linear(model, inner, seq, prefix(layerParts.output), intermediate, hidden);
  return layerNorm(model, add(out, normed), seq, prefix(layerParts.outputNorm));
}

function forwardOne(
  model: ReferenceBert,
  ids: readonly number[],
  mask: readonly number[],
  types: readonly number[],
) {
  let x = embed(model, ids, types);
  for (let layer = 0; layer < model.dims.layers; layer++) x = encoderLayer(model, x, mask, layer);
  return x;
}

function padTo<T>(rows: readonly (readonly T[])[], seq: number, fill: T): T[] {
  return rows.flatMap((row) => [...row, ...Array<T>(seq - row.length).fill(fill)]);
}

/** last_hidden_state `[batch, seq, hidden]` (float64), sequences padded to the longest. */
export function bertForward(
  model: ReferenceBert,
  batch: TokenizedBatch,
): HiddenStates & { mask: number[] } {
  const { inputIds } = batch;
  const seq = Math.max(0, ...inputIds.map((ids) => ids.length));
  const hidden = model.dims.hidden;
  const masks = inputIds.map((ids, b) => batch.attentionMask?.[b] ?? ids.map(() => 1));
  const data = new Float64Array(inputIds.length * seq * hidden);
  inputIds.forEach((ids, b) => {
    const types = batch.tokenTypeIds?.[b] ?? ids.map(() => 0);
    const padded = (row: readonly number[], fill: number) => padTo([row], seq, fill);
    const out = forwardOne(model, padded(ids, 0), padded(masks[b], 0), padded(types, 0));
    data.set(out, b * seq * hidden);
  });
  return { data, batch: inputIds.length, seq, dim: hidden, mask: padTo(masks, seq, 0) };
}

export function referenceEmbed(
  model: ReferenceBert,
  batch: TokenizedBatch,
  options: { pooling: Pooling; normalize: boolean },
): Float32Array {
  const hidden = bertForward(model, batch);
  return pool(hidden, hidden.mask, options);
}
