// Generates every file of the tiny deterministic BERT test model (pure; no file system).
import { buildBertModel } from './onnx-graph.ts';
import { buildVocab, SPECIAL_TOKENS } from './vocab.ts';
import { makeWeights, type BertDims } from './weights.ts';

export const TINY_BERT_SEED = 20240611;
export const TINY_BERT_ONNX_PATH = 'onnx/model.onnx';
const MODEL_MAX_LENGTH = 512;

export interface GeneratedFile {
  path: string;
  bytes: Uint8Array;
}

type Json = string | number | boolean | null | Json[] | JsonObject | OrderedEntries;
interface JsonObject {
  [key: string]: Json;
}
/** An object whose key order must survive serialisation (integer-like keys would be reordered). */
class OrderedEntries {
  constructor(readonly entries: [string, Json][]) {}
}

function stringify(value: Json, indent = ''): string {
  const inner = `${indent}  `;
  if (
    value instanceof OrderedEntries ||
    (typeof value === 'object' && value && !Array.isArray(value))
  ) {
    const entries = value instanceof OrderedEntries ? value.entries : Object.entries(value);
    if (entries.length === 0) return '{}';
    const body = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stringify(v, inner)}`);
    return `{\n${body.join(',\n')}\n${indent}}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${stringify(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  return JSON.stringify(value);
}

const text = (content: string): Uint8Array => new TextEncoder().encode(content);
const jsonFile = (path: string, value: Json): GeneratedFile => ({
  path,
  bytes: text(`${stringify(value)}\n`),
});

export function tinyBertDims(vocabSize: number): BertDims {
  return {
    vocabSize,
    hidden: 32,
    heads: 4,
    layers: 2,
    intermediate: 64,
    maxPositions: 512,
    typeVocabSize: 2,
    layerNormEps: 1e-12,
  };
}

function configJson(dims: BertDims): Json {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    vocab_size: dims.vocabSize,
    hidden_size: dims.hidden,
    num_hidden_layers: dims.layers,
    num_attention_heads: dims.heads,
    intermediate_size: dims.intermediate,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0,
    attention_probs_dropout_prob: 0,
    max_position_embeddings: dims.maxPositions,
    type_vocab_size: dims.typeVocabSize,
    initializer_range: 0.02,
    layer_norm_eps: dims.layerNormEps,
    pad_token_id: 0,
    position_embedding_type: 'absolute',
  };
}

function specialTokenEntry(token: string, vocab: string[]): Json {
  return { id: token, ids: [vocab.indexOf(token)], tokens: [token] };
}

function postProcessor(vocab: string[]): Json {
  const special = (id: string, typeId: number): Json => ({ SpecialToken: { id, type_id: typeId } });
  const sequence = (id: string, typeId: number): Json => ({ Sequence: { id, type_id: typeId } });
  return {
    type: 'TemplateProcessing',
    single: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0)],
    pair: [
      special('[CLS]', 0),
      sequence('A', 0),
      special('[SEP]', 0),
      sequence('B', 1),
      special('[SEP]', 1),
    ],
    special_tokens: {
      '[CLS]': specialTokenEntry('[CLS]', vocab),
      '[SEP]': specialTokenEntry('[SEP]', vocab),
    },
  };
}

function tokenizerJson(vocab: string[]): Json {
  const addedTokens: Json[] = SPECIAL_TOKENS.map((content) => ({
    id: vocab.indexOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: true,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: postProcessor(vocab),
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: new OrderedEntries(vocab.map((token, id) => [token, id])),
    },
  };
}

function tokenizerConfigJson(): Json {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
    model_max_length: MODEL_MAX_LENGTH,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };
}

/** All files of the model, in a fixed order, paths relative to the model directory. */
export function makeTinyBertFiles(seed = TINY_BERT_SEED): GeneratedFile[] {
  const vocab = buildVocab();
  const dims = tinyBertDims(vocab.length);
  const onnx = buildBertModel(dims, makeWeights(dims, seed));
  return [
    jsonFile('config.json', configJson(dims)),
    jsonFile('tokenizer.json', tokenizerJson(vocab)),
    jsonFile('tokenizer_config.json', tokenizerConfigJson()),
    { path: 'vocab.txt', bytes: text(`${vocab.join('\n')}\n`) },
    { path: TINY_BERT_ONNX_PATH, bytes: onnx },
  ];
}
