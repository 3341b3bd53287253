import { describe, expect, it } from 'vitest';
import { LoadProgressTracker, describeLoad } from '../../../src/lib/embed/load-progress.ts';

describe('LoadProgressTracker', () => {
  it('sums bytes over files and completes a file on done', () => {
    const t = new LoadProgressTracker();
    expect(t.update({ status: 'initiate', file: 'tokenizer.json' })).toBeNull();
    expect(
      t.update({ status: 'progress', file: 'tokenizer.json', loaded: 100, total: 400 }),
    ).toEqual({ loaded: 100, total: 400, file: 'tokenizer.json' });
    t.update({ status: 'progress', file: 'onnx/model.onnx', loaded: 1000, total: 90_000 });
    expect(t.update({ status: 'done', file: 'tokenizer.json' })).toEqual({
      loaded: 1400,
      total: 90_400,
      file: 'tokenizer.json',
    });
    expect(t.update({ status: 'ready' })).toBeNull();
  });

  it('counts a file of unknown size by its bytes only', () => {
    const t = new LoadProgressTracker();
    expect(t.update({ status: 'progress', file: 'a', loaded: 7 })).toEqual({
      loaded: 7,
      total: 0,
      file: 'a',
    });
  });
});

describe('describeLoad', () => {
  it('says the bytes so far, the total when known, and the file', () => {
    expect(
      describeLoad({ loaded: 2 * 1024 ** 2, total: 8 * 1024 ** 2, file: 'onnx/model.onnx' }),
    ).toBe('2.0 MiB of 8.0 MiB (onnx/model.onnx)');
    expect(describeLoad({ loaded: 512, total: 0, file: 'tokenizer.json' })).toBe(
      '512 B (tokenizer.json)',
    );
  });
});
