// One batch through a transformers.js model, pooled by pooling.ts: the embed worker and the Node
// embedder share it, so both sides tokenize, run and pool with the same code.
import { Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import type { ModelSpec } from './model-registry.ts';
import { pool } from './pooling.ts';

function hiddenStatesOf(outputs: unknown): Tensor {
  const hidden =
    typeof outputs === 'object' && outputs !== null && 'last_hidden_state' in outputs
      ? outputs.last_hidden_state
      : undefined;
  if (!(hidden instanceof Tensor) || !(hidden.data instanceof Float32Array)) {
    throw new Error('model output has no float32 last_hidden_state');
  }
  return hidden;
}

export async function embedBatch(
  tokenizer: PreTrainedTokenizer,
  model: PreTrainedModel,
  spec: ModelSpec,
  texts: string[],
): Promise<Float32Array> {
  const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: spec.maxTokens });
  const hidden = hiddenStatesOf(await model(inputs));
  const [batch, seq, dim] = hidden.dims;
  const mask = inputs.attention_mask.data;
  if (!(mask instanceof BigInt64Array)) throw new Error('attention_mask is not int64');
  const pooled = pool({ data: hidden.data, batch, seq, dim }, mask, spec);
  hidden.dispose();
  if (pooled.length !== texts.length * spec.dims) {
    throw new Error(`model "${spec.id}" returned ${dim} dims, registry says ${spec.dims}`);
  }
  return pooled;
}

export function tokenLengths(
  tokenizer: PreTrainedTokenizer,
  spec: ModelSpec,
  texts: string[],
): number[] {
  const { input_ids } = tokenizer(texts, {
    truncation: true,
    max_length: spec.maxTokens,
    return_tensor: false,
  });
  return input_ids.map((ids) => ids.length);
}
