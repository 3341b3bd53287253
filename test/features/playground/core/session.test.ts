import { describe, expect, it } from 'vitest';
import { getModelSpec } from '../../../../src/lib/embed/model-registry.ts';
import type { SiteModels } from '../../../../src/lib/embed/site-models.ts';
import {
  PlaygroundSession,
  packBackendLine,
  type PlaygroundSnapshot,
} from '../../../../src/features/playground/core/session.ts';
import {
  SITE_PACKS_FORMAT,
  SITE_PACKS_INDEX,
  SitePacks,
} from '../../../../src/lib/vectors/site-packs.ts';
import { FakeEmbedder, fakeHub } from '../../../lib/embed/fake-embedders.ts';
import { sitePackFixture } from '../../../lib/vectors/site-pack-fixture.ts';

const BACKGROUND = ['my cat is asleep', 'a walk in the park', 'the almond harvest'];

function served(ids: string[]): SiteModels {
  return new Map(
    ids.map((id) => {
      const spec = getModelSpec(id);
      return [id, { spec, dtypes: spec.dtypes }];
    }),
  );
}

const settle = (ms = 40) => new Promise((r) => setTimeout(r, ms));

/** Waits for a state, not for a guess: under load the model's run can take far longer than 40 ms. */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !check(); await settle(5))
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
}

const TINY = 'tiny-bert';
const statusOf = (s: PlaygroundSession, id = TINY) => s.getSnapshot().results[id]?.status;

function session(ids = ['tiny-bert'], failing: string[] = []) {
  const { hub, made } = fakeHub({ failing });
  const s = new PlaygroundSession({ hub, siteModels: Promise.resolve(served(ids)), delayMs: 5 });
  const seen: PlaygroundSnapshot[] = [];
  s.subscribe((state) => seen.push(state));
  return { s, made, seen };
}

describe('PlaygroundSession', () => {
  it("shows a model's download while it loads, then its ranking", async () => {
    const { hub } = fakeHub({ loadBytes: 2048 });
    const s = new PlaygroundSession({
      hub,
      siteModels: Promise.resolve(served(['tiny-bert'])),
      delayMs: 1,
    });
    const seen: PlaygroundSnapshot[] = [];
    s.subscribe((state) => seen.push(state));
    await settle(1);
    s.rank({ background: BACKGROUND, memories: ['nut'], query: 'nut', models: ['tiny-bert'] });
    await until(() => statusOf(s) === 'done', 'tiny-bert done');
    const loads = seen.map((state) => state.results['tiny-bert']).filter((r) => r?.load);
    expect(loads.map((r) => [r?.status, r?.load?.loaded])).toEqual([
      ['loading', 1024],
      ['loading', 2048],
    ]);
    expect(s.getSnapshot().results['tiny-bert']).toMatchObject({ status: 'done', load: null });
  });

  it('offers BM25 and the served models, with the dtype it will load', async () => {
    const { s } = session(['tiny-bert']);
    expect(s.getSnapshot().options.every((o) => o.kind === 'bm25' || o.dtype === null)).toBe(true);
    await settle(1);
    const tiny = s.getSnapshot().options.find((o) => o.id === 'tiny-bert');
    expect(tiny?.dtype).not.toBeNull();
    expect(s.getSnapshot().options.find((o) => o.id === 'minilm')?.dtype).toBeNull();
  });

  it('ranks with BM25 at once and the model after the pause, through the hub', async () => {
    const { s, made, seen } = session();
    await settle(1);
    s.rank({
      background: BACKGROUND,
      memories: ['nut allergy'],
      query: 'allergy macaron',
      models: ['tiny-bert'],
    });
    await until(() => statusOf(s, 'bm25') === 'done', 'BM25 done');
    expect(s.getSnapshot().results.bm25?.ranking?.corpusSize).toBe(4);
    await until(() => statusOf(s) === 'done', 'tiny-bert done');
    const tiny = s.getSnapshot().results['tiny-bert'];
    expect(tiny?.status).toBe('done');
    expect(tiny?.ranking?.memories[0].rank).toBe(1);
    expect(seen.some((state) => state.results['tiny-bert']?.status === 'loading')).toBe(true);
    expect(made).toHaveLength(1);
    expect(made[0].request.model).toMatchObject({ id: 'tiny-bert', backend: 'auto' });
  });

  it('embeds the background once per model, and shows only the latest texts', async () => {
    const { s, made } = session();
    await settle(1);
    s.rank({ background: BACKGROUND, memories: ['cat'], query: 'visa', models: ['tiny-bert'] });
    s.rank({
      background: BACKGROUND,
      memories: ['visa stamp'],
      query: 'visa',
      models: ['tiny-bert'],
    });
    await until(() => statusOf(s) === 'done', 'the second request ranked');
    s.rank({
      background: BACKGROUND,
      memories: ['visa stamp', 'a cat'],
      query: 'my cat',
      models: ['tiny-bert'],
    });
    await until(
      () => statusOf(s) === 'done' && s.getSnapshot().results[TINY]?.ranking?.memories.length === 2,
      'the third request ranked',
    );
    const calls = made[0].embedder.calls;
    // The first request never reached the model: the second replaced it during the pause.
    expect(calls.filter((c) => c.texts.includes(BACKGROUND[0]))).toHaveLength(1);
    expect(calls.some((c) => c.texts.includes('cat'))).toBe(false);
    const last = s.getSnapshot().results['tiny-bert'];
    expect(last?.ranking?.memories).toHaveLength(2);
    // 'a cat' ties with the background's 'my cat is asleep', and ties go to the background.
    expect(last?.ranking?.memories[1]).toMatchObject({ rank: 2, backgroundAbove: 1 });
  });

  it('reports a model that cannot load, and tries again on the next texts', async () => {
    const { s, seen } = session(['tiny-bert'], ['tiny-bert']);
    const errors = () =>
      seen.filter(
        (state, i) =>
          state.results[TINY]?.status === 'error' && seen[i - 1]?.results[TINY]?.status !== 'error',
      ).length;
    await settle(1);
    s.rank({ background: BACKGROUND, memories: ['x'], query: 'y', models: ['tiny-bert'] });
    await until(() => errors() === 1, 'the first error');
    expect(s.getSnapshot().results['tiny-bert']).toMatchObject({
      status: 'error',
      detail: 'cannot load tiny-bert',
    });
    s.rank({ background: BACKGROUND, memories: ['x'], query: 'z', models: ['tiny-bert'] });
    await until(() => errors() === 2, 'the second try failing again');
    expect(s.getSnapshot().results['tiny-bert']?.status).toBe('error');
  });

  it('says a model the site does not serve is not served', async () => {
    const { s } = session([]);
    await settle(1);
    s.rank({ background: BACKGROUND, memories: ['x'], query: 'y', models: ['minilm'] });
    await until(() => statusOf(s, 'minilm') === 'error', 'minilm refused');
    expect(s.getSnapshot().results.minilm?.detail).toBe('minilm is not served by this site');
  });

  it('changes nothing once disposed', async () => {
    const { s, seen } = session();
    await settle(1);
    s.rank({ background: BACKGROUND, memories: ['x'], query: 'y', models: ['tiny-bert'] });
    s.dispose();
    const count = seen.length;
    await settle();
    expect(seen.length).toBe(count);
  });

  it('cancels a model run, keeps BM25, names the backend, and runs it again on request', async () => {
    // Slow batches, so that the run is still going when the test sees it start.
    const { hub } = fakeHub({ delayMs: 200 });
    const s = new PlaygroundSession({
      hub,
      siteModels: Promise.resolve(served(['tiny-bert'])),
      delayMs: 5,
    });
    await settle(1);
    const request = {
      background: BACKGROUND,
      memories: ['nut allergy'],
      query: 'allergy macaron',
      models: ['tiny-bert'],
    };
    s.rank(request);
    await until(() => statusOf(s) === 'loading' || statusOf(s) === 'running', 'tiny-bert started');
    s.cancel('tiny-bert');
    expect(s.getSnapshot().results['tiny-bert']?.status).toBe('cancelled');
    await settle();
    expect(s.getSnapshot().results['tiny-bert']?.status).toBe('cancelled');
    expect(s.getSnapshot().results.bm25?.status).toBe('done');
    s.again('tiny-bert');
    await until(() => statusOf(s) === 'done', 'tiny-bert done again');
    const tiny = s.getSnapshot().results['tiny-bert'];
    expect(tiny?.status).toBe('done');
    expect(tiny?.backend).not.toBe('');
  });
});

describe("PlaygroundSession and the site's vectors", () => {
  const base = 'https://site.test/memlens/';

  /** A site serving a tiny-bert pack of BACKGROUND (the fake model's own vectors). */
  async function sitePacks(): Promise<SitePacks> {
    const spec = new FakeEmbedder().spec;
    const rows = await new FakeEmbedder().embed(BACKGROUND, { kind: 'document' });
    // The vector check refuses an all-zero row, the fake's for "a walk in the park" (no VOCAB
    // word): the pack holds "visa" there instead, as far from the test's query as zero is.
    const unit = rows.vectors.map((v, i) =>
      i % spec.dims === spec.dims - 1 && BACKGROUND[Math.floor(i / spec.dims)].includes('walk')
        ? 1
        : v,
    );
    const { bytes, entry } = await sitePackFixture(spec, BACKGROUND, unit, ['inmind']);
    const files: Record<string, BodyInit> = {
      [SITE_PACKS_INDEX]: JSON.stringify({ format: SITE_PACKS_FORMAT, packs: [entry] }),
      [`vectors/${entry.file}`]: bytes,
    };
    return new SitePacks(base, async (input) => {
      const body = files[String(input).slice(base.length)];
      return body === undefined ? new Response('no', { status: 404 }) : new Response(body);
    });
  }

  it('embeds only the texts the pack lacks, and says how many came from it', async () => {
    const { hub, made } = fakeHub();
    const s = new PlaygroundSession({
      hub,
      siteModels: Promise.resolve(served([TINY])),
      delayMs: 1,
      sitePacks: await sitePacks(),
    });
    await settle(1);
    s.rank({ background: BACKGROUND, memories: ['nut allergy'], query: 'nut', models: [TINY] });
    await until(() => statusOf(s) === 'done', 'tiny-bert done');
    const embedded = made[0].embedder.calls.flatMap((c) => c.texts);
    expect(embedded.sort()).toEqual(['nut', 'nut allergy']);
    const result = s.getSnapshot().results[TINY];
    expect(result?.backend).toMatch(
      /^onnxruntime-node; 3 texts from the site's vectors \(sha256 [0-9a-f]{12}…\), 2 embedded in this browser$/,
    );
    // The same ranking as a model that embeds everything itself (the pack holds its vectors).
    const plain = session([TINY]).s;
    await settle(1);
    plain.rank({ background: BACKGROUND, memories: ['nut allergy'], query: 'nut', models: [TINY] });
    await until(() => statusOf(plain) === 'done', 'plain tiny-bert done');
    expect(result?.ranking).toEqual(plain.getSnapshot().results[TINY]?.ranking);
  });

  it('words the backend line for one text and for none', () => {
    const sha = 'f'.repeat(64);
    expect(packBackendLine('WASM', sha, { fromPack: 0, embedded: 4 })).toBe('WASM');
    expect(packBackendLine('WASM', sha, { fromPack: 1, embedded: 0 })).toBe(
      "WASM; 1 text from the site's vectors (sha256 ffffffffffff…), 0 embedded in this browser",
    );
  });
});
