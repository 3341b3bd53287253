import { describe, expect, it } from 'vitest';
import { MODEL_DTYPES } from '../../../src/lib/embed/model-registry.ts';
import { nodeRuntime } from '../../../src/lib/embed/node-runtime.ts';
import { batchPlanFor, DEFAULT_BATCH_PLAN } from '../../../src/lib/embed/token-batches.ts';

describe('nodeRuntime and batchPlanFor', () => {
  it('runs fp32 natively and batched, every other dtype on WASM one text per pass', () => {
    expect(nodeRuntime('fp32')).toBe('onnxruntime-node cpu');
    expect(batchPlanFor('fp32')).toEqual(DEFAULT_BATCH_PLAN);
    for (const dtype of MODEL_DTYPES.filter((d) => d !== 'fp32')) {
      expect(nodeRuntime(dtype)).toBe('onnxruntime-web wasm');
      expect(batchPlanFor(dtype)).toEqual({ maxBatch: 1, tokenBudget: 0 });
    }
  });
});
