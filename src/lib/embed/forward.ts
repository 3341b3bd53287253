// Texts through a transformers.js model, pooled by pooling.ts: the embed worker and the Node
// embedder share it, so both sides tokenize, truncate, run and pool with the same code.
// Each text is tokenized once; its ids serve both length-batching and the batch itself.
import { Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import type { ModelSpec } from './model-registry.ts';
import { pool } from './pooling.ts';

/** One text's token ids, special tokens included, at most `maxTokens` long. */
export type TokenIds = readonly number[];

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

/**
 * Cuts `ids` (already wrapped in special tokens) to `max` while keeping its closing token, as
 * HF `tokenizers` and sentence-transformers do: transformers.js 4.3 truncates after adding
 * special tokens, so a long text would otherwise lose its final [SEP].
 */
export function truncateKeepingLast(ids: TokenIds, max: number): number[] {
  if (max < 2) throw new RangeError(`maxTokens must be at least 2, got ${max}`);
  if (ids.length <= max) return [...ids];
  return [...ids.slice(0, max - 1), ids[ids.length - 1]];
}

function idsOf(value: unknown): number[] {
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'number')) {
    throw new Error('tokenizer returned non-numeric input_ids');
  }
  return value;
}

export function encodeTexts(
  tokenizer: PreTrainedTokenizer,
  spec: Pick<ModelSpec, 'maxTokens'>,
  texts: readonly string[],
): number[][] {
  if (texts.length === 0) return [];
  const { input_ids } = tokenizer([...texts], {
    add_special_tokens: true,
    truncation: false,
    return_tensor: false,
  });
  if (!Array.isArray(input_ids) || input_ids.length !== texts.length) {
    throw new Error(`tokenizer returned ${String(input_ids?.length)} rows for ${texts.length}`);
  }
  return input_ids.map((row: unknown) => truncateKeepingLast(idsOf(row), spec.maxTokens));
}

export interface BatchFeeds {
  input_ids: Tensor;
  attention_mask: Tensor;
  token_type_ids: Tensor;
}

/** Right-padded int64 tensors for one batch, as the tokenizer's own `padding: true` makes. */
export function batchFeeds(batch: readonly TokenIds[], padId: number): BatchFeeds {
  const seq = Math.max(...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(batch.length * seq).fill(BigInt(padId));
  const mask = new BigInt64Array(batch.length * seq);
  batch.forEach((row, b) => {
    row.forEach((id, s) => {
      ids[b * seq + s] = BigInt(id);
      mask[b * seq + s] = 1n;
    });
  });
  const dims = [batch.length, seq];
  return {
    input_ids: new Tensor('int64', ids, dims),
    attention_mask: new Tensor('int64', mask, dims),
    token_type_ids: new Tensor('int64', new BigInt64Array(batch.length * seq), dims),
  };
}

export function padIdOf(tokenizer: PreTrainedTokenizer): number {
  const id = tokenizer.pad_token_id;
  if (typeof id !== 'number') throw new Error('tokenizer has no pad token');
  return id;
}

/** One batch's `last_hidden_state`, row-major `[batch, seq, dim]`. */
export interface HiddenStates {
  data: Float32Array;
  dims: readonly number[];
  dispose(): void;
}

/** Runs the graph on one batch: transformers.js's model, or a session of the CLI's own. */
export type ForwardPass = (feeds: BatchFeeds) => Promise<HiddenStates>;

/** The forward pass of a model transformers.js loaded (its session, its runtime). */
export function modelForward(model: PreTrainedModel): ForwardPass {
  return async (feeds) => {
    const hidden = hiddenStatesOf(await model(feeds));
    return { data: hidden.data, dims: hidden.dims, dispose: () => hidden.dispose() };
  };
}

export async function embedIds(
  forward: ForwardPass,
  spec: ModelSpec,
  batch: readonly TokenIds[],
  padId: number,
): Promise<Float32Array> {
  const feeds = batchFeeds(batch, padId);
  const hidden = await forward(feeds);
  const [rows, seq, dim] = hidden.dims;
  const mask = feeds.attention_mask.data;
  if (!(mask instanceof BigInt64Array)) throw new Error('attention_mask is not int64');
  const pooled = pool({ data: hidden.data, batch: rows, seq, dim }, mask, spec);
  hidden.dispose();
  if (pooled.length !== batch.length * spec.dims) {
    throw new Error(`model "${spec.id}" returned ${dim} dims, registry says ${spec.dims}`);
  }
  return pooled;
}
