// A model the reader brings, end to end in Node: a local ONNX folder or a Hub repository at a
// commit (tiny-bert's and MiniLM's own files, with MiniLM's sentence-transformers files beside
// them; the Hub is a local stand-in with its URL layout) embeds exactly as the registry's model,
// and joins a comparison beside it and beside a pack made by `embed:pack --benchmark`, each named
// by its reference, keyed on its files' digest, in every CSV row. A Hub file whose bytes differ
// from its first download is refused by name.
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrought, type HubPlace } from '../../scripts/lib/brought.ts';
import { startFakeHub, type FakeHub, type HubFile } from '../support/fake-hub.ts';
import { benchmarkPack, embedPack } from '../../scripts/lib/embed-pack.ts';
import { readVectorPack, writeVectorPack } from '../../src/lib/vectors/pack.ts';
import { openSiteCatalog, parseArgs, reproduceComparison } from '../../scripts/reproduce.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { parseBroughtRef, type BroughtRef } from '../../src/lib/embed/brought-model.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';
import { createNodeEmbedder } from '../../src/lib/embed/node-embedder.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { comparisonCsvRows } from '../../src/lib/protocol-kit/compare-report.ts';
import type { Catalog } from '../../src/lib/db/catalog.ts';

const site = path.join(repoRoot, 'public');
const hasData = existsSync(path.join(site, 'data/inmind/inmind_en.jsonl'));
const minilmDir = path.join(site, 'models/minilm');
const hasMinilm = existsSync(path.join(minilmDir, 'onnx/model.onnx'));

/** The sentence-transformers files of a mean-pooled, normalised model (MiniLM's, as its wheel has them). */
function stFiles(dims: number, maxSeq: number): Record<string, string> {
  return {
    'modules.json': JSON.stringify([
      { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
      { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
      { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
    ]),
    '1_Pooling/config.json': JSON.stringify({
      word_embedding_dimension: dims,
      pooling_mode_cls_token: false,
      pooling_mode_mean_tokens: true,
    }),
    'sentence_bert_config.json': JSON.stringify({ max_seq_length: maxSeq, do_lower_case: false }),
    'config_sentence_transformers.json': JSON.stringify({ prompts: {} }),
  };
}

/** A folder with `from`'s files (hard links where the file system allows) and the ST files. */
async function exportFolder(
  dir: string,
  from: string,
  files: readonly string[],
  st: Record<string, string>,
): Promise<void> {
  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await mkdir(path.join(dir, '1_Pooling'), { recursive: true });
  for (const f of files) {
    await link(path.join(from, f), path.join(dir, f)).catch(() =>
      copyFile(path.join(from, f), path.join(dir, f)),
    );
  }
  for (const [f, text] of Object.entries(st)) await writeFile(path.join(dir, f), text);
}

let tmp: string;
let tinyDir: string;
const savedCache = process.env.MEMLENS_CACHE;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'memlens-brought-'));
  // The CLI's vector cache in a folder of its own: every vector here is computed by this test.
  process.env.MEMLENS_CACHE = path.join(tmp, 'cache');
  tinyDir = path.join(tmp, 'my-tiny');
  await exportFolder(
    tinyDir,
    path.join(repoRoot, 'test/fixtures/models/tiny-bert'),
    ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt', 'onnx/model.onnx'],
    stFiles(32, 128),
  );
});

afterAll(async () => {
  if (savedCache === undefined) delete process.env.MEMLENS_CACHE;
  else process.env.MEMLENS_CACHE = savedCache;
  await rm(tmp, { recursive: true, force: true });
});

const ref = (text: string): BroughtRef => {
  const parsed = parseBroughtRef(text);
  if (!parsed) throw new Error(`${text} is not brought`);
  return parsed;
};

async function vectorsOf(model: ModelRef, texts: string[]): Promise<Float32Array> {
  const embedder = await createNodeEmbedder({ model });
  try {
    return (await embedder.embed(texts, { kind: 'document' })).vectors;
  } finally {
    await embedder.dispose();
  }
}

const TEXTS = ['I moved to Lisbon last spring.', 'My sister is a nurse.', 'bm25 vs dense'];

describe('a local ONNX folder', () => {
  it("embeds exactly as the registry's tiny-bert, its settings read from its files", async () => {
    const opened = await openBrought(ref(`onnx:${tinyDir}`), null);
    expect(opened.ref.spec).toMatchObject({ pooling: 'mean', normalize: true, maxTokens: 128 });
    expect(opened.lines.join('\n')).toMatch(
      /sha256 [0-9a-f]{64} {2}onnx\/model\.onnx \(\d+ bytes\)/,
    );
    const mine = await vectorsOf(opened.ref, TEXTS);
    // Found by its own absolute path, whatever model root a command was given.
    const rooted = await createNodeEmbedder({ model: opened.ref, modelRoot: '/nonexistent' });
    expect((await rooted.embed(TEXTS, { kind: 'document' })).vectors).toEqual(mine);
    await rooted.dispose();
    const registry = await vectorsOf(parseModelRef('tiny-bert', { backend: 'node' }), TEXTS);
    expect(mine).toEqual(registry);
  }, 60_000);

  it.skipIf(!hasMinilm)(
    "embeds exactly as the registry's MiniLM (fp32 and q8)",
    async () => {
      const dir = path.join(tmp, 'my-minilm');
      const weights = ['onnx/model.onnx', 'onnx/model_quantized.onnx'];
      await exportFolder(
        dir,
        minilmDir,
        ['config.json', 'tokenizer.json', 'tokenizer_config.json', ...weights],
        stFiles(384, 256),
      );
      for (const dtype of ['fp32', 'q8'] as const) {
        const opened = await openBrought(ref(`onnx:${dir}:${dtype}`), null);
        expect(opened.ref.dtype).toBe(dtype);
        const registry = parseModelRef(`minilm:${dtype}`, { backend: 'node' });
        expect(await vectorsOf(opened.ref, TEXTS)).toEqual(await vectorsOf(registry, TEXTS));
      }
    },
    120_000,
  );

  it('refuses a folder without its sentence-transformers files, naming the folder', async () => {
    const bare = path.join(tmp, 'bare');
    await exportFolder(
      bare,
      tinyDir,
      ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'],
      {},
    );
    await expect(openBrought(ref(`onnx:${bare}`), null)).rejects.toThrow(
      new RegExp(`${bare}: modules\\.json is missing`),
    );
    await expect(openBrought(ref(`onnx:${path.join(tmp, 'nowhere')}`), null)).rejects.toThrow(
      /is not a folder/,
    );
  });
});

describe.skipIf(!hasData)('a comparison with brought retrievers (InMind)', () => {
  let catalog: Catalog;
  let close: () => Promise<void>;
  let packFile: string;

  beforeAll(async () => {
    ({ catalog, close } = await openSiteCatalog(site));
    packFile = path.join(tmp, 'inmind-tiny.parquet');
    const pack = await benchmarkPack({
      model: parseModelRef('tiny-bert', { backend: 'node' }),
      benchmark: 'inmind',
      site,
    });
    await writeFile(packFile, new Uint8Array(pack.bytes));
  }, 300_000);
  afterAll(async () => close?.());

  it('ranks the folder and the pack exactly as the registry model, each named in every row', async () => {
    const opts = parseArgs([
      '--benchmark',
      'inmind',
      '--compare',
      `tiny-bert,onnx:${tinyDir},pack:${packFile}`,
    ]);
    const run = await reproduceComparison(opts, opts.compare ?? [], catalog);
    const c = run.comparison;
    const names = [`tiny-bert`, `onnx:${tinyDir}`, `pack:${packFile}`];
    expect(c.retrievers.map((r) => r.ref)).toEqual(names);
    for (const pair of c.pairs) {
      expect([pair.onlyA, pair.delta]).toEqual(pair.metric === 'recall' ? [0, 0] : [null, 0]);
      expect(pair.valueA).toBe(pair.valueB);
    }
    const rows = comparisonCsvRows(c);
    const onnxRow = rows.find((r) => r.retriever_b === `onnx:${tinyDir}`);
    expect(onnxRow?.revision_b).toMatch(/^files:[0-9a-f]{64}$/);
    expect(rows.find((r) => r.retriever_b === `pack:${packFile}`)?.revision_b).toBe(
      c.retrievers[0].revision,
    );
    expect(run.lines.join('\n')).toContain(`onnx:${tinyDir}: my-tiny (ONNX folder), fp32`);
  }, 300_000);

  it('refuses a pack made for other texts or another query setting, naming it', async () => {
    const other = path.join(tmp, 'corpus.parquet');
    const pack = await embedPack({
      model: parseModelRef('tiny-bert', { backend: 'node' }),
      kind: 'document',
      texts: TEXTS,
    });
    await writeFile(other, new Uint8Array(pack.bytes));
    const opts = parseArgs(['--benchmark', 'inmind', '--compare', `bm25,pack:${other}`]);
    await expect(reproduceComparison(opts, opts.compare ?? [], catalog)).rejects.toThrow(
      /pack:.*corpus\.parquet: lacks vectors for \d+ of \d+ document texts of this benchmark/,
    );
    const prefixed = parseArgs([
      '--benchmark',
      'inmind',
      '--query-prefix',
      '--compare',
      `bm25,pack:${packFile}`,
    ]);
    await expect(reproduceComparison(prefixed, prefixed.compare ?? [], catalog)).rejects.toThrow(
      /has no query vectors/,
    );
  }, 300_000);
});

describe('the CLI refuses a pack of bad vectors as the page does', () => {
  it('names the pack, the row and the check, before any comparison', async () => {
    const pack = await embedPack({
      model: parseModelRef('tiny-bert', { backend: 'node' }),
      kind: 'document',
      texts: TEXTS,
    });
    const rows = await readVectorPack(pack.bytes);
    const nan = path.join(tmp, 'nan.parquet');
    rows[1] = { ...rows[1], vector: rows[1].vector.map(() => Number.NaN) };
    await writeFile(nan, new Uint8Array(writeVectorPack(rows)));
    await expect(openBrought(ref(`pack:${nan}`), null)).rejects.toThrow(
      /^pack:.*nan\.parquet: row 1 fails the finite check \(number 0 is NaN\): the model that made them failed/,
    );
  }, 120_000);
});

const TINY_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
const TINY_REPO = 'reader/tiny-export';
const MINILM_REPO = 'reader/minilm-export';
const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);

async function hubFiles(
  repo: string,
  revision: string,
  from: string,
  files: readonly string[],
  st: Record<string, string>,
  fault?: { path: string; fault: HubFile['fault'] },
): Promise<HubFile[]> {
  const out: HubFile[] = [];
  for (const f of files) {
    out.push({
      repo,
      revision,
      path: f,
      bytes: new Uint8Array(await readFile(path.join(from, f))),
    });
  }
  for (const [f, text] of Object.entries(st)) {
    out.push({ repo, revision, path: f, bytes: new TextEncoder().encode(text) });
  }
  return out.map((f) => (fault && f.path === fault.path ? { ...f, fault: fault.fault } : f));
}

describe('a Hub repository at a commit (a local stand-in for the Hub)', () => {
  let hub: FakeHub;
  let place: HubPlace;
  const tinyFrom = path.join(repoRoot, 'test/fixtures/models/tiny-bert');

  beforeAll(async () => {
    const minilm = hasMinilm
      ? await hubFiles(MINILM_REPO, C2, minilmDir, TINY_FILES, stFiles(384, 256))
      : [];
    hub = await startFakeHub([
      ...(await hubFiles(TINY_REPO, C1, tinyFrom, TINY_FILES, stFiles(32, 128))),
      ...minilm,
    ]);
    place = { hub: hub.url, dir: path.join(tmp, 'hub') };
  });
  afterAll(async () => hub?.close());

  it('downloads the files at the commit, records their sha256, and embeds as the registry model', async () => {
    const first = await openBrought(ref(`hub:${TINY_REPO}@${C1}`), null, place);
    expect(first.lines.join('\n')).toMatch(
      /digests recorded on first download in .*1{40}\.sha256\.json/,
    );
    expect(hub.requests).toContain(`GET /${TINY_REPO}/resolve/${C1}/onnx/model.onnx`);
    expect(hub.requests.some((r) => r.startsWith('GET /cdn-lfs/'))).toBe(true);
    const registry = parseModelRef('tiny-bert', { backend: 'node' });
    expect(await vectorsOf(first.ref, TEXTS)).toEqual(await vectorsOf(registry, TEXTS));
    // A second load reads the kept copy, checked against the record: no request.
    const asked = hub.requests.length;
    const again = await openBrought(ref(`hub:${TINY_REPO}@${C1}`), null, place);
    expect(hub.requests.length).toBe(asked);
    expect(again.ref.revision).toBe(first.ref.revision);
    expect(again.lines.join('\n')).toMatch(/8 files checked against the digests recorded/);
  }, 60_000);

  it('refuses other bytes than the first download, naming the file (trust on first use)', async () => {
    const tokenizerConfig = path.join(place.dir, TINY_REPO, C1, 'tokenizer_config.json');
    const kept = await readFile(tokenizerConfig);
    await writeFile(tokenizerConfig, '{"do_lower_case": false}');
    await expect(openBrought(ref(`hub:${TINY_REPO}@${C1}`), null, place)).rejects.toThrow(
      /tokenizer_config\.json: the copy in .* has sha256 [0-9a-f]{64}, the first download recorded/,
    );
    // The copy gone, the Hub now serves other bytes for the same commit.
    await rm(tokenizerConfig);
    const other = await startFakeHub(
      await hubFiles(TINY_REPO, C1, tinyFrom, TINY_FILES, stFiles(32, 128), {
        path: 'tokenizer_config.json',
        fault: 'flip',
      }),
    );
    try {
      await expect(
        openBrought(ref(`hub:${TINY_REPO}@${C1}`), null, { ...place, hub: other.url }),
      ).rejects.toThrow(
        new RegExp(
          `hub:${TINY_REPO}@${C1} tokenizer_config\\.json: sha256 [0-9a-f]{64} from .*, the first download \\(.*\\) says ${await sha256Of(kept)}; refused`,
        ),
      );
    } finally {
      await other.close();
    }
    await writeFile(tokenizerConfig, kept);
  }, 60_000);

  it.skipIf(!hasMinilm)(
    "gets MiniLM's own bytes and embeds exactly as the site's MiniLM",
    async () => {
      const opened = await openBrought(ref(`hub:${MINILM_REPO}@${C2}`), null, place);
      expect(opened.lines.join('\n')).toContain(
        'sha256 246d3b3d0410451f972105e4e436ad1ad4a02bd1b966cf9f600631a699b86f26  onnx/model.onnx',
      );
      const registry = parseModelRef('minilm', { backend: 'node' });
      expect(await vectorsOf(opened.ref, TEXTS)).toEqual(await vectorsOf(registry, TEXTS));
    },
    120_000,
  );

  it.skipIf(!hasData)(
    'joins a comparison, named by its reference in every row',
    async () => {
      const savedHub = process.env.MEMLENS_HUB_URL;
      process.env.MEMLENS_HUB_URL = hub.url;
      const { catalog, close } = await openSiteCatalog(site);
      try {
        const name = `hub:${TINY_REPO}@${C1}`;
        const opts = parseArgs(['--benchmark', 'inmind', '--compare', `tiny-bert,${name}`]);
        const run = await reproduceComparison(opts, opts.compare ?? [], catalog);
        for (const pair of run.comparison.pairs) {
          expect(pair.valueA).toBe(pair.valueB);
          expect(pair.b).toBe(name);
        }
        for (const row of comparisonCsvRows(run.comparison)) {
          expect(row).toMatchObject({
            retriever_b: name,
            revision_b: expect.stringMatching(/^files:/),
          });
        }
      } finally {
        await close();
        if (savedHub === undefined) delete process.env.MEMLENS_HUB_URL;
        else process.env.MEMLENS_HUB_URL = savedHub;
      }
    },
    300_000,
  );
});

async function sha256Of(bytes: Uint8Array): Promise<string> {
  const { sha256Hex } = await import('../../src/lib/common/sha256.ts');
  return sha256Hex(bytes);
}
