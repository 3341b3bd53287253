import { describe, expect, it } from 'vitest';
import { compareRun, lostTableAdvice } from '../../../src/lib/app/compare-feature.ts';
import { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';
import { PickedPacks } from '../../../src/lib/vectors/pack-model.ts';

const hub = new EmbedderHub({
  openStore: () => Promise.reject(new Error('no store here')),
  create: () => Promise.reject(new Error('no model here')),
});
const services = (failed: { table: string; message: string }[]) => ({
  siteBase: 'http://127.0.0.1:9/',
  hub,
  restore: { failed },
});

describe("the comparison's composition root", () => {
  it('names the page that loads a lost submission table, and why it did not come back', () => {
    const lost = services([{ table: 'sub_a', message: 'the store is full' }]);
    expect(lostTableAdvice(lost, 'sub_a')).toMatch(
      /^Load the InMind submission file that made sub_a again on Your data \(#\/mydata\);.* It could not be restored: the store is full$/,
    );
    expect(lostTableAdvice(lost, 'sub_b')).not.toContain('could not be restored');
  });

  it('makes an idle run', () => {
    const run = compareRun(services([]), Promise.resolve(new Map()), new PickedPacks());
    expect(run.getSnapshot().phase).toBe('idle');
    run.dispose();
  });
});
