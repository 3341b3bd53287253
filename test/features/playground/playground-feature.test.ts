import { describe, expect, it } from 'vitest';
import { playgroundSession } from '../../../src/features/playground/playground-feature.ts';
import { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';

describe("the Playground's composition root", () => {
  it('offers BM25 at once and the models the site serves once it says which', async () => {
    const hub = new EmbedderHub({
      openStore: () => Promise.reject(new Error('no store here')),
      create: () => Promise.reject(new Error('no model here')),
    });
    const session = playgroundSession(
      { siteBase: 'http://127.0.0.1:9/', hub },
      Promise.resolve(new Map()),
      new EventTarget(),
    );
    expect(session.getSnapshot().options.map((o) => o.id)).toContain('bm25');
    session.dispose();
  });
});
