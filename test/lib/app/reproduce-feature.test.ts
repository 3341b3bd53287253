import { describe, expect, it } from 'vitest';
import { reproduceRun } from '../../../src/lib/app/reproduce-feature.ts';
import { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';

describe("Reproduce's composition root", () => {
  it('makes an idle run that asks nothing until a view is requested', () => {
    let created = 0;
    const hub = new EmbedderHub({
      openStore: () => Promise.reject(new Error('no store here')),
      create: () => {
        created++;
        return Promise.reject(new Error('no model here'));
      },
    });
    const run = reproduceRun({ siteBase: 'http://127.0.0.1:9/', hub }, Promise.resolve(new Map()));
    expect(run.getSnapshot().phase).toBe('idle');
    expect(created).toBe(0);
    run.dispose();
  });
});
