// MiniLM q8 in Node runs on onnxruntime-web's WASM, as the page runs it: WASM SIMD's semantics are
// fixed, so these bits are the same on any CPU (onnxruntime-node's int8 kernels are not), and
// one text per pass makes a text's vector its own, whatever else is embedded beside it.
// test/e2e/q8-wasm-parity.test.ts checks them against Chromium's.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';
import { createNodeEmbedder, type NodeEmbedder } from '../../../src/lib/embed/node-embedder.ts';

const TEXTS = [
  'I love hiking in the mountains on weekends.',
  'What is my favourite hobby?',
  'The quarterly report is due on Friday, and the numbers look worse than expected.',
  'ok',
];

/**
 * sha256 of the first text's 384 float32s (little-endian), recorded from this WASM path. A change
 * here means the q8 numbers changed: onnxruntime-web, the weights, tokenisation or pooling.
 */
const FIRST_SHA256 = '991cac8ad168342d6be1e40d4df17cf7876f5746c3f005268d466c12a4a2bc9b';

let q8: NodeEmbedder;

beforeAll(async () => {
  q8 = await createNodeEmbedder({ model: parseModelRef('minilm:q8', { backend: 'node' }) });
}, 120_000);

afterAll(async () => {
  await q8?.dispose();
});

const digest = (v: Float32Array) =>
  createHash('sha256')
    .update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))
    .digest('hex');

describe('MiniLM q8 on onnxruntime-web WASM in Node', () => {
  it('names its runtime and gives a text the same bits alone as among others', async () => {
    expect(q8.runtime).toBe('onnxruntime-web wasm');
    const all = await q8.embed(TEXTS, { kind: 'document' });
    for (const [i, text] of TEXTS.entries()) {
      const alone = await q8.embed([text], { kind: 'document' });
      expect(digest(alone.vectors), text).toBe(
        digest(all.vectors.subarray(i * 384, (i + 1) * 384)),
      );
    }
    expect(digest(all.vectors.subarray(0, 384))).toBe(FIRST_SHA256);
  }, 120_000);
});
