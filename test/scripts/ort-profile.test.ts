import { describe, expect, it } from 'vitest';
import {
  feedArrays,
  kernelEventsOfFile,
  kernelEventsOfLines,
  opTotals,
} from '../../scripts/lib/ort-profile.ts';

const kernel = (op: string, dur: number) => ({
  cat: 'Node',
  name: `/x/${op}_kernel_time`,
  dur,
  ts: 0,
  args: { op_name: op },
});
const session = { cat: 'Session', name: 'model_run', dur: 99, ts: 0, args: {} };

describe('ORT profile events', () => {
  it('pads a batch to its longest row, masking the padding', () => {
    const f = feedArrays(
      [
        [101, 7, 102],
        [101, 102],
      ],
      0,
    );
    expect(f.dims).toEqual([2, 3]);
    expect([...f.inputIds]).toEqual([101n, 7n, 102n, 101n, 102n, 0n]);
    expect([...f.attentionMask]).toEqual([1n, 1n, 1n, 1n, 1n, 0n]);
    expect([...f.tokenTypeIds]).toEqual([0n, 0n, 0n, 0n, 0n, 0n]);
  });

  it("keeps only kernel times, from node's file and web's console lines alike", () => {
    const events = [session, kernel('MatMul', 5), { ...kernel('Add', 2), name: 'x_fence_before' }];
    expect(kernelEventsOfFile(JSON.stringify(events))).toEqual([{ op: 'MatMul', durUs: 5 }]);
    const lines = ['[I] start', ...events.map((e) => `${JSON.stringify(e)},`), '{broken'];
    expect(kernelEventsOfLines(lines)).toEqual([{ op: 'MatMul', durUs: 5 }]);
  });

  it('drops the warm-up runs from the front and sums per op type', () => {
    const run = (scale: number) => [kernel('MatMul', 10 * scale), kernel('Add', scale)];
    const events = kernelEventsOfFile(JSON.stringify([...run(100), ...run(1), ...run(2)]));
    expect(opTotals(events, 3, 2)).toEqual(
      new Map([
        ['MatMul', 30],
        ['Add', 3],
      ]),
    );
    expect(() => opTotals(events, 4, 3)).toThrow(/do not split/);
  });
});
