// The page's Hub model against a 127.0.0.1 stand-in Hub serving tiny-bert with
// sentence-transformers files: what the page says before downloading, the first download's
// digests, a load from the kept copy without the network, and a changed file refused by name.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fileUrl,
  HubDigestMismatch,
  hubPlan,
  loadHubModel,
  PAGE_HUB,
  pageHubUrl,
  parseHubInput,
  planCached,
  type HubProgress,
} from '../../../src/lib/embed/hub-model.ts';
import { pickedModel } from '../../../src/lib/embed/picked-files.ts';
import { COMMIT, deps, hubs, MemoryHubStore, NAME, REPO, startHub } from './hub-fixture.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

describe('parseHubInput', () => {
  it('takes owner/name@commit with or without hub:, and a dtype', () => {
    expect(parseHubInput(` ${REPO}@${COMMIT}:q8 `)).toEqual({
      kind: 'hub',
      repo: REPO,
      revision: COMMIT,
      dtype: 'q8',
    });
    expect(parseHubInput(NAME).dtype).toBeNull();
  });

  it('refuses a branch, a short hash and an empty field with what to give instead', () => {
    expect(() => parseHubInput(`${REPO}@main`)).toThrow(/"main" is a branch or tag, not a commit/);
    expect(() => parseHubInput(`${REPO}@abc1234`)).toThrow(/short hash: give the full 40-hex/);
    expect(() => parseHubInput(REPO)).toThrow(/expected hub:OWNER\/NAME@COMMIT/);
    expect(() => parseHubInput('  ')).toThrow(/OWNER\/NAME@COMMIT/);
    expect(() => parseHubInput(`../x@${COMMIT}`)).toThrow(/not a Hub repository/);
  });
});

describe('where the page downloads from', () => {
  it('is the Hub outside test builds, each path segment encoded', () => {
    expect(pageHubUrl('https://example.org/memlens/')).toBe(PAGE_HUB);
    expect(fileUrl('https://h.test/hub/', parseHubInput(NAME), 'a b/c#d.json')).toBe(
      `https://h.test/hub/${REPO}/resolve/${COMMIT}/a%20b/c%23d.json`,
    );
  });
});

describe('loadHubModel', () => {
  it('says what it will fetch, records every digest on first download, then loads offline', async () => {
    const { hub, files } = await startHub();
    const store = new MemoryHubStore();
    const ref = parseHubInput(NAME);
    const before = await hubPlan(ref, hub.url, store);
    expect(before.host).toBe(new URL(hub.url).host);
    expect(before.prefix).toBe(`${hub.url}/${REPO}/resolve/${COMMIT}/`);
    expect(before.files.map((f) => f.path)).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'modules.json',
      'sentence_bert_config.json',
      'config_sentence_transformers.json',
      'onnx/model.onnx',
    ]);
    expect(before.files.every((f) => f.bytes === null)).toBe(true);
    expect(before.poolingUnknown).toBe(true);
    expect(planCached(before)).toBe(false);

    const progress: HubProgress[] = [];
    const loaded = await loadHubModel(
      ref,
      deps(hub.url, store, { onProgress: (p) => progress.push(p) }),
    );
    expect(loaded.entry.id).toBe(NAME);
    expect(pickedModel(NAME)).toBe(loaded.entry);
    const recorded = store.digestsByBase.get(NAME) ?? {};
    for (const f of files)
      expect(recorded[f.path]).toEqual({ sha256: sha(f.bytes), bytes: f.bytes.length });
    expect(Object.keys(recorded).sort()).toEqual(files.map((f) => f.path).sort());
    expect(loaded.recorded.sort()).toEqual(files.map((f) => f.path).sort());
    expect(loaded.entry.model.ref.revision).toMatch(/^files:[0-9a-f]{64}$/);
    expect(loaded.entry.model.config).toMatchObject({
      pooling: 'mean',
      normalize: true,
      dims: 32,
      maxTokens: 128,
    });
    const weights = progress.filter((p) => p.path === 'onnx/model.onnx');
    expect(weights.at(-1)).toMatchObject({ received: 223221, bytes: 223221, index: 6, total: 8 });

    const after = await hubPlan(ref, hub.url, store);
    expect(after.poolingUnknown).toBe(false);
    expect(after.files.find((f) => f.path === 'onnx/model.onnx')?.bytes).toBe(223221);
    expect(planCached(after)).toBe(true);
    const offline = await loadHubModel(
      ref,
      deps(hub.url, store, { fetch: () => Promise.reject(new Error('no network')) }),
    );
    expect(offline.recorded).toEqual([]);
    expect(offline.entry.model.ref.revision).toBe(loaded.entry.model.ref.revision);
  });

  it('refuses a later download whose bytes differ, naming the file and both digests', async () => {
    const store = new MemoryHubStore();
    const ref = parseHubInput(NAME);
    const honest = await startHub();
    await loadHubModel(ref, deps(honest.hub.url, store));
    const first = store.digestsByBase.get(NAME)?.['onnx/model.onnx']?.sha256;
    await store.deleteFiles(NAME);
    expect(planCached(await hubPlan(ref, honest.hub.url, store))).toBe(false);

    const tampered = await startHub({ path: 'onnx/model.onnx', fault: 'flip' });
    const failure = loadHubModel(ref, deps(tampered.hub.url, store));
    await expect(failure).rejects.toBeInstanceOf(HubDigestMismatch);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^${NAME} onnx/model.onnx: sha256 [0-9a-f]{64} from .*, but its first download recorded sha256 ${first} `,
      ),
    );
    expect(await store.file(NAME, 'onnx/model.onnx')).toBeNull();
    expect(store.digestsByBase.get(NAME)?.['onnx/model.onnx']?.sha256).toBe(first);
  });

  it('refuses a file the Hub resolved to another commit, and a required file it lacks', async () => {
    const wrong = await startHub({ path: 'config.json', fault: 'wrong-commit' });
    await expect(
      loadHubModel(parseHubInput(NAME), deps(wrong.hub.url, new MemoryHubStore())),
    ).rejects.toThrow(
      `${NAME} config.json: the Hub resolved ${COMMIT} to commit ${'f'.repeat(40)}; refused`,
    );
    const q8 = parseHubInput(`${NAME}:q8`);
    const honest = await startHub();
    await expect(loadHubModel(q8, deps(honest.hub.url, new MemoryHubStore()))).rejects.toThrow(
      /no q8 weights \(onnx\/model_quantized\.onnx\); has none/,
    );
  });

  it('names the file and the URL when the Hub cannot be reached', async () => {
    const down = deps('http://127.0.0.1:9', new MemoryHubStore());
    await expect(loadHubModel(parseHubInput(NAME), down)).rejects.toThrow(
      `${NAME} config.json: http://127.0.0.1:9/${REPO}/resolve/${COMMIT}/config.json could not be reached (`,
    );
  });

  it('records nothing for a body cut off before its announced length', async () => {
    const cut = await startHub({ path: 'tokenizer.json', fault: 'cut' });
    const store = new MemoryHubStore();
    await expect(loadHubModel(parseHubInput(NAME), deps(cut.hub.url, store))).rejects.toThrow();
    expect(Object.keys(store.digestsByBase.get(NAME) ?? {})).toEqual(['config.json']);
  });

  it('stops on cancel, keeping the digests of the files that came', async () => {
    const { hub } = await startHub();
    const store = new MemoryHubStore();
    const controller = new AbortController();
    const onProgress = (p: HubProgress) => {
      if (p.path === 'modules.json') controller.abort();
    };
    await expect(
      loadHubModel(
        parseHubInput(NAME),
        deps(hub.url, store, { signal: controller.signal, onProgress }),
      ),
    ).rejects.toThrow(/abort/i);
    expect(Object.keys(store.digestsByBase.get(NAME) ?? {})).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
  });
});
