// The comparison's Hub models against a 127.0.0.1 stand-in Hub: nothing is requested before the
// reader agrees; a kept model loads without asking; a declined one is not asked again by itself;
// cancel stops the download with a message. Each test uses its own commit: a loaded model stays
// picked for the rest of the process, as in a tab.
import { afterEach, describe, expect, it } from 'vitest';
import { HubSession, type HubSessionState } from '../../../src/lib/embed/hub-session.ts';
import type { HubLoaded } from '../../../src/lib/embed/hub-model.ts';
import { parseHubInput } from '../../../src/lib/embed/hub-model.ts';
import { hubs, MemoryHubStore, REPO, startHub } from './hub-fixture.ts';

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

function session(hub: string, store = new MemoryHubStore()) {
  const loaded: HubLoaded[] = [];
  const s = new HubSession({ hub, store, fetch, origin: 'http://memlens.invalid' }, (l) =>
    loaded.push(l),
  );
  const settled = (test: (v: HubSessionState) => boolean) =>
    new Promise<HubSessionState>((resolve) => {
      const stop = s.subscribe((v) => {
        if (test(v)) queueMicrotask(() => (stop(), resolve(v)));
      });
    });
  return { s, loaded, store, settled };
}

describe('HubSession', () => {
  it('refuses a branch before any request', async () => {
    const { hub } = await startHub();
    const { s } = session(hub.url);
    s.add(`${REPO}@main`);
    expect(s.getSnapshot().message).toMatch(/"main" is a branch or tag, not a commit/);
    expect(s.getSnapshot().phase.kind).toBe('idle');
    expect(hub.requests).toEqual([]);
  });

  it('asks first, downloads once agreed, then a new tab loads the kept copy without asking', async () => {
    const commit = '1'.repeat(40);
    const name = `hub:${REPO}@${commit}`;
    const { hub } = await startHub(undefined, commit);
    const first = session(hub.url);
    first.s.add(name);
    const asking = await first.settled((v) => v.phase.kind === 'asking');
    expect(asking.phase.kind === 'asking' && asking.phase.plan.host).toBe(new URL(hub.url).host);
    expect(hub.requests).toEqual([]);
    first.s.agree();
    const done = await first.settled((v) => v.loaded.length === 1);
    expect(done.phase.kind).toBe('idle');
    expect(first.loaded.map((l) => l.entry.id)).toEqual([name]);
    expect(done.loaded[0].recorded).toHaveLength(7);
    const fetched = hub.requests.length;

    // What a reload does: the reference comes from the URL, the files from this browser's store.
    const other = `hub:${REPO}@${'2'.repeat(40)}`;
    const again = session(hub.url, first.store);
    await first.store.saveDigests(other, (await first.store.digests(name)) ?? {});
    for (const f of done.loaded[0].entry.model.files) {
      await first.store.putFile(other, f.path, done.loaded[0].entry.files[f.path]);
    }
    again.s.restore([parseHubInput(other)]);
    await again.settled((v) => v.loaded.length === 1);
    expect(again.loaded[0].recorded).toEqual([]);
    expect(hub.requests.length).toBe(fetched);
  });

  it('does not ask again for a declined reference until the reader adds it', async () => {
    const commit = '3'.repeat(40);
    const ref = parseHubInput(`${REPO}@${commit}`);
    const { hub } = await startHub(undefined, commit);
    const { s, settled } = session(hub.url);
    s.restore([ref]);
    await settled((v) => v.phase.kind === 'asking');
    s.decline();
    expect(s.getSnapshot().phase.kind).toBe('idle');
    s.restore([ref]);
    expect(s.getSnapshot().phase.kind).toBe('idle');
    s.add(`${REPO}@${commit}`);
    await settled((v) => v.phase.kind === 'asking');
    expect(hub.requests).toEqual([]);
  });

  it('stops on cancel and says what was kept', async () => {
    const commit = '4'.repeat(40);
    const { hub } = await startHub(undefined, commit);
    const { s, settled } = session(hub.url);
    s.add(`${REPO}@${commit}`);
    await settled((v) => v.phase.kind === 'asking');
    s.agree();
    await settled((v) => v.phase.kind === 'downloading' && v.phase.progress !== null);
    s.cancel();
    const after = await settled((v) => v.phase.kind === 'idle');
    expect(after.message).toBe(
      `hub:${REPO}@${commit}: download cancelled; the files that arrived are kept with their digests`,
    );
    expect(after.loaded).toEqual([]);
  });
});
