import { describe, expect, it } from 'vitest';
import { LoadProgressTracker } from '../../../src/lib/embed/load-progress.ts';

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
