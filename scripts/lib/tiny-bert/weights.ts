// Seeded weights of the tiny BERT. Only integer/float arithmetic (no Math.log/cos) so the
// bytes are identical on every platform and JS engine.

export interface BertDims {
  vocabSize: number;
  hidden: number;
  heads: number;
  layers: number;
  intermediate: number;
  maxPositions: number;
  typeVocabSize: number;
  layerNormEps: number;
}

export interface NamedTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

/** Dense weights are stored `[in, out]` so the graph can use a plain MatMul. */
export const weightNames = {
  wordEmbeddings: 'embeddings.word_embeddings.weight',
  positionEmbeddings: 'embeddings.position_embeddings.weight',
  tokenTypeEmbeddings: 'embeddings.token_type_embeddings.weight',
  embeddingsNorm: 'embeddings.LayerNorm',
  layer: (index: number, part: string): string => `encoder.layer.${index}.${part}`,
} as const;

export const layerParts = {
  query: 'attention.self.query',
  key: 'attention.self.key',
  value: 'attention.self.value',
  attentionOut: 'attention.output.dense',
  attentionNorm: 'attention.output.LayerNorm',
  intermediate: 'intermediate.dense',
  output: 'output.dense',
  outputNorm: 'output.LayerNorm',
} as const;

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Irwin–Hall(4): bell-shaped, mean 0, standard deviation `std`. */
function normalish(random: () => number, std: number): number {
  const sum = random() + random() + random() + random();
  return (sum - 2) * std * Math.sqrt(3);
}

function tensor(name: string, dims: number[], fill: () => number): NamedTensor {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = fill();
  return { name, dims, data };
}

function linear(random: () => number, prefix: string, rows: number, cols: number, std: number) {
  return [
    tensor(`${prefix}.weight`, [rows, cols], () => normalish(random, std)),
    tensor(`${prefix}.bias`, [cols], () => normalish(random, 0.02)),
  ];
}

function layerNorm(random: () => number, prefix: string, size: number): NamedTensor[] {
  return [
    tensor(`${prefix}.weight`, [size], () => 1 + normalish(random, 0.05)),
    tensor(`${prefix}.bias`, [size], () => normalish(random, 0.02)),
  ];
}

function encoderLayer(random: () => number, dims: BertDims, index: number): NamedTensor[] {
  const p = (part: string) => weightNames.layer(index, part);
  const { hidden, intermediate } = dims;
  // Larger than BERT's 0.02 so attention is far from uniform and the test is sensitive.
  const std = 0.2;
  return [
    ...linear(random, p(layerParts.query), hidden, hidden, std),
    ...linear(random, p(layerParts.key), hidden, hidden, std),
    ...linear(random, p(layerParts.value), hidden, hidden, std),
    ...linear(random, p(layerParts.attentionOut), hidden, hidden, std),
    ...layerNorm(random, p(layerParts.attentionNorm), hidden),
    ...linear(random, p(layerParts.intermediate), hidden, intermediate, std),
    ...linear(random, p(layerParts.output), intermediate, hidden, std),
    ...layerNorm(random, p(layerParts.outputNorm), hidden),
  ];
}

export function makeWeights(dims: BertDims, seed: number): NamedTensor[] {
  const random = mulberry32(seed);
  // Words dominate positions so that embeddings depend mostly on the text.
  const embeddings = [
    tensor(weightNames.wordEmbeddings, [dims.vocabSize, dims.hidden], () => normalish(random, 0.5)),
    tensor(weightNames.positionEmbeddings, [dims.maxPositions, dims.hidden], () =>
      normalish(random, 0.2),
    ),
    tensor(weightNames.tokenTypeEmbeddings, [dims.typeVocabSize, dims.hidden], () =>
      normalish(random, 0.2),
    ),
    ...layerNorm(random, weightNames.embeddingsNorm, dims.hidden),
  ];
  const layers = Array.from({ length: dims.layers }, (_, i) => encoderLayer(random, dims, i));
  return [...embeddings, ...layers.flat()];
}
