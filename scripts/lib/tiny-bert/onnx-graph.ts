// Builds the BERT encoder graph (as HF's BertModel exports it) from standard ONNX ops.
import onnxProto from 'onnx-proto';
import { layerParts, weightNames, type BertDims, type NamedTensor } from './weights.ts';

const { onnx } = onnxProto;
type NodeProto = InstanceType<typeof onnx.NodeProto>;
type TensorProto = InstanceType<typeof onnx.TensorProto>;
type AttributeValue = number | number[] | string;

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
export const OPSET = 17;
const IR_VERSION = 8;

export const INPUT_NAMES = ['input_ids', 'attention_mask', 'token_type_ids'] as const;
export const OUTPUT_NAME = 'last_hidden_state';

function attribute(name: string, value: AttributeValue) {
  const { AttributeType } = onnx.AttributeProto;
  if (typeof value === 'string') {
    return { name, type: AttributeType.STRING, s: new TextEncoder().encode(value) };
  }
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  return Number.isInteger(value)
    ? { name, type: AttributeType.INT, i: value }
    : { name, type: AttributeType.FLOAT, f: value };
}

function floatTensor({ name, dims, data }: NamedTensor): TensorProto {
  const bytes = new Uint8Array(data.length * 4);
  const view = new DataView(bytes.buffer);
  data.forEach((value, i) => view.setFloat32(i * 4, value, true));
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: bytes });
}

function int64Tensor(name: string, values: number[], scalar = false): TensorProto {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => view.setBigInt64(i * 8, BigInt(value), true));
  const dims = scalar ? [] : [values.length];
  return onnx.TensorProto.create({ name, dims, dataType: INT64, rawData: bytes });
}

function floatScalar(name: string, value: number): TensorProto {
  return floatTensor({ name, dims: [], data: Float32Array.of(value) });
}

class GraphBuilder {
  readonly nodes: NodeProto[] = [];
  readonly constants: TensorProto[] = [];
  private counter = 0;

  op(type: string, inputs: string[], attrs: Record<string, AttributeValue> = {}): string {
    const name = `${type}_${this.counter++}`;
    const output = `${name}_out`;
    const attribute_ = Object.entries(attrs).map(([key, value]) => attribute(key, value));
    this.nodes.push(
      onnx.NodeProto.create({
        name,
        opType: type,
        input: inputs,
        output: [output],
        attribute: attribute_,
      }),
    );
    return output;
  }

  const(tensor: TensorProto): string {
    this.constants.push(tensor);
    return tensor.name;
  }
}

function linear(g: GraphBuilder, x: string, prefix: string): string {
  return g.op('Add', [g.op('MatMul', [x, `${prefix}.weight`]), `${prefix}.bias`]);
}

function layerNorm(g: GraphBuilder, x: string, prefix: string, eps: number): string {
  const inputs = [x, `${prefix}.weight`, `${prefix}.bias`];
  return g.op('LayerNormalization', inputs, { axis: -1, epsilon: eps });
}

function gelu(g: GraphBuilder, x: string): string {
  const erf = g.op('Erf', [g.op('Div', [x, 'const.sqrt2'])]);
  return g.op('Mul', [g.op('Mul', [x, g.op('Add', [erf, 'const.one'])]), 'const.half']);
}

function embeddings(g: GraphBuilder, dims: BertDims): string {
  const shape = g.op('Shape', ['input_ids']);
  const seqLen = g.op('Gather', [shape, 'const.i64_1'], { axis: 0 });
  const positions = g.op('Range', ['const.i64_0', seqLen, 'const.i64_1']);
  const words = g.op('Gather', [weightNames.wordEmbeddings, 'input_ids'], { axis: 0 });
  const types = g.op('Gather', [weightNames.tokenTypeEmbeddings, 'token_type_ids'], { axis: 0 });
  const pos = g.op('Gather', [weightNames.positionEmbeddings, positions], { axis: 0 });
  const sum = g.op('Add', [g.op('Add', [words, types]), pos]);
  return layerNorm(g, sum, weightNames.embeddingsNorm, dims.layerNormEps);
}

/** [B, S] int mask → [B, 1, 1, S] additive float mask: 0 where attended, -10000 elsewhere. */
function extendedMask(g: GraphBuilder): string {
  const mask = g.op('Cast', ['attention_mask'], { to: FLOAT });
  const expanded = g.op('Unsqueeze', [mask, 'const.axes_1_2']);
  return g.op('Mul', [g.op('Sub', ['const.one', expanded]), 'const.mask_value']);
}

function splitHeads(g: GraphBuilder, x: string, perm: number[]): string {
  return g.op('Transpose', [g.op('Reshape', [x, 'const.head_shape'])], { perm });
}

function selfAttention(g: GraphBuilder, x: string, mask: string, prefix: (p: string) => string) {
  const q = splitHeads(g, linear(g, x, prefix(layerParts.query)), [0, 2, 1, 3]);
  const kT = splitHeads(g, linear(g, x, prefix(layerParts.key)), [0, 2, 3, 1]);
  const v = splitHeads(g, linear(g, x, prefix(layerParts.value)), [0, 2, 1, 3]);
  const scores = g.op('Add', [g.op('Div', [g.op('MatMul', [q, kT]), 'const.sqrt_head']), mask]);
  const context = g.op('MatMul', [g.op('Softmax', [scores], { axis: -1 }), v]);
  const merged = g.op('Transpose', [context], { perm: [0, 2, 1, 3] });
  return g.op('Reshape', [merged, 'const.hidden_shape']);
}

function encoderLayer(g: GraphBuilder, x: string, mask: string, index: number, eps: number) {
  const prefix = (part: string) => weightNames.layer(index, part);
  const context = selfAttention(g, x, mask, prefix);
  const attended = g.op('Add', [linear(g, context, prefix(layerParts.attentionOut)), x]);
  const normed = layerNorm(g, attended, prefix(layerParts.attentionNorm), eps);
  const inner = gelu(g, linear(g, normed, prefix(layerParts.intermediate)));
  const out = g.op('Add', [linear(g, inner, prefix(layerParts.output)), normed]);
  return layerNorm(g, out, prefix(layerParts.outputNorm), eps);
}

function addConstants(g: GraphBuilder, dims: BertDims): void {
  const headSize = dims.hidden / dims.heads;
  g.const(int64Tensor('const.i64_0', [0], true));
  g.const(int64Tensor('const.i64_1', [1], true));
  g.const(int64Tensor('const.axes_1_2', [1, 2]));
  g.const(int64Tensor('const.head_shape', [0, 0, dims.heads, headSize]));
  g.const(int64Tensor('const.hidden_shape', [0, 0, dims.hidden]));
  g.const(floatScalar('const.one', 1));
  g.const(floatScalar('const.half', 0.5));
  g.const(floatScalar('const.sqrt2', Math.SQRT2));
  g.const(floatScalar('const.sqrt_head', Math.sqrt(headSize)));
  g.const(floatScalar('const.mask_value', -10000));
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  const dim = dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

export function buildBertModel(dims: BertDims, weights: NamedTensor[]): Uint8Array {
  const g = new GraphBuilder();
  addConstants(g, dims);
  let hidden = embeddings(g, dims);
  const mask = extendedMask(g);
  for (let i = 0; i < dims.layers; i++)
    hidden = encoderLayer(g, hidden, mask, i, dims.layerNormEps);
  g.nodes.push(
    onnx.NodeProto.create({
      name: 'output',
      opType: 'Identity',
      input: [hidden],
      output: [OUTPUT_NAME],
    }),
  );

  const graph = {
    name: 'tiny_bert',
    node: g.nodes,
    initializer: [...weights.map(floatTensor), ...g.constants],
    input: INPUT_NAMES.map((name) => valueInfo(name, INT64, ['batch_size', 'sequence_length'])),
    output: [valueInfo(OUTPUT_NAME, FLOAT, ['batch_size', 'sequence_length', dims.hidden])],
  };
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    producerName: 'memlens-make-tiny-bert',
    opsetImport: [{ domain: '', version: OPSET }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
