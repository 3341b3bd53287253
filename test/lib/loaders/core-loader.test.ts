import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import {
  loadBenchmarkData,
  loadInMind,
  loadReproduced,
  loadResults,
} from '../../../src/lib/loaders/core-loader.ts';
import {
  collectBenchmarkRows,
  loadBenchmarkRows,
} from '../../../src/lib/loaders/benchmark-loader.ts';
import { inmindTaskRows } from '../../../src/lib/datasets/inmind.ts';
import { sha256Hex } from '../../../src/lib/common/sha256.ts';
import { SITE, siteFetch } from '../data/site-fetch.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await loadInMind(catalog, { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() });
});

afterAll(async () => {
  await catalog.engine.close();
});

describe('InMind in DuckDB-WASM (Node build)', () => {
  it('loads 125 tasks, 486 background turns and the injection constants', async () => {
    expect(await catalog.count('inmind_tasks')).toBe(125);
    expect(await catalog.count('lme_background')).toBe(486);
    const [m] = await catalog.query('SELECT * FROM inmind_manifest');
    expect(m.injection_session_index).toBe(8);
    const [d] = await catalog.query('SELECT count(DISTINCT domain) AS n FROM inmind_tasks');
    expect(d.n).toBe(10);
  });

  it('rejects a file whose sha256 differs, naming it, and keeps the loaded tables', async () => {
    const tampered = siteFetch({
      'data/inmind/inmind_en.jsonl': (b) => Buffer.concat([b, Buffer.from('\n')]),
    });
    await expect(
      loadInMind(catalog, { siteBase: SITE, allowUpstream: false, fetchImpl: tampered }),
    ).rejects.toThrow(/inmind\/inmind_en\.jsonl: sha256 mismatch/);
    expect(await catalog.count('inmind_tasks')).toBe(125);
    expect(await catalog.count('lme_background')).toBe(486);
  });

  it('rejects a malformed JSONL line, naming file and line, and keeps the loaded tables', async () => {
    const good = await (await siteFetch()(`${SITE}data/inmind/inmind_en.jsonl`)).text();
    const lines = good.split('\n');
    lines[2] = lines[2].slice(0, -5);
    const load = async () =>
      catalog.loadRows(
        'inmind_tasks',
        inmindTaskRows(lines.join('\n'), 'my-tasks.jsonl'),
        'my-tasks.jsonl',
      );
    await expect(load()).rejects.toThrow(/my-tasks\.jsonl:3\b/);
    expect(await catalog.count('inmind_tasks')).toBe(125);
  });

  it('keeps the previous table when DuckDB itself rejects the new rows', async () => {
    await expect(catalog.loadRows('inmind_tasks', [], 'empty.jsonl')).rejects.toThrow(
      /empty\.jsonl/,
    );
    expect(await catalog.count('inmind_tasks')).toBe(125);
  });
});

describe('released results and conversation benchmarks', () => {
  it('loads every results CSV into one table with a view per paper', async () => {
    const files = ['inmind', 'locomo-conv', 'memuse', 'utilmem'].map((p) => ({
      name: `data/results/${p}.csv`,
      url: `${SITE}data/results/${p}.csv`,
    }));
    const n = await loadResults(catalog, files, siteFetch());
    expect(n).toBeGreaterThan(300);
    const [row] = await catalog.query(
      `SELECT value, value_text FROM results_inmind WHERE "table" = 'Table 1' AND "row" LIKE 'BM25%' AND metric = 'naive'`,
    );
    expect(row).toEqual({ value: 53.6, value_text: '53.6' });
  });

  it('loads MemLens’s reproduced numbers beside the papers’ rows', async () => {
    const files = [
      { name: 'data/results/inmind.csv', url: `${SITE}data/results/inmind.csv` },
      { name: 'data/reproduced/memlens.csv', url: `${SITE}data/reproduced/memlens.csv` },
    ];
    await loadResults(catalog, files, siteFetch());
    expect(await loadReproduced(catalog, files, siteFetch())).toBeGreaterThan(0);
    const rows = await catalog.query(
      `SELECT paper, value, model FROM results_with_reproduced
       WHERE ("paper" = 'inmind' AND "table" = 'Table 1' AND "row" LIKE 'Dense (MiniLM)%' AND metric = 'naive')
          OR ("paper" = 'memlens' AND "column" = 'recall@5 · naive' AND model LIKE '%MiniLM%')
       ORDER BY paper`,
    );
    expect(rows.map((r) => r.paper)).toEqual(['inmind', 'memlens']);
    expect(rows[0].value).toBe(92);
    expect(rows[1].model).toBe('sentence-transformers/all-MiniLM-L6-v2');
    // paper_vs_ours: each paper number beside ours on one row, joined on aligned keys.
    const side = await catalog.query(
      `SELECT system, comparability, paper_value, ours_value, paper_k, k, cross_system, difference
       FROM paper_vs_ours
       WHERE benchmark = 'inmind' AND scope = 'naive' AND paper_metric = 'naive'
       ORDER BY paper_value, system`,
    );
    // emb3-large, which MemLens does not run, stands beside each retriever it does.
    expect(side.map((r) => [r.paper_value, r.system, r.comparability, r.paper_k, r.k])).toEqual([
      [53.6, 'bm25', 'proxy', 5, 5],
      [92, 'minilm', 'proxy', 5, 5],
      [97.6, 'bm25', 'proxy', 5, 5],
      [97.6, 'minilm', 'proxy', 5, 5],
    ]);
    // emb3-large's rows are another system's; ours beside its own row has a difference.
    expect(side.map((r) => r.cross_system)).toEqual([false, false, true, true]);
    expect(side.map((r) => Math.round(Number(r.difference) * 10) / 10)).toEqual([
      0, 3.2, -44, -2.4,
    ]);
    const [joined] = await catalog.query(
      `SELECT count(*) AS n FROM paper_vs_ours v
       JOIN reproduced r ON r.benchmark = v.benchmark AND r.variant = v.scope AND r.k = v.k
        AND r.metric = v.metric AND r.command = v.command`,
    );
    expect(Number(joined.n)).toBe(
      Number((await catalog.query('SELECT count(*) AS n FROM paper_vs_ours'))[0].n),
    );
  });

  it('loads LoCoMo, LoCoMo-Plus, LoCoMo-Conv and MemUse into shared tables', async () => {
    const rows = await collectBenchmarkRows({
      siteBase: SITE,
      allowUpstream: false,
      fetchImpl: siteFetch(),
    });
    const counts = await loadBenchmarkRows(catalog, rows);
    expect(counts.turns).toBe(rows.turns.length);
    const per = await catalog.query(
      `SELECT dataset, count(*) AS n FROM turns GROUP BY dataset ORDER BY dataset`,
    );
    expect(Object.fromEntries(per.map((r) => [r.dataset, r.n])).locomo).toBe(5882);
    const [qa] = await catalog.query(
      `SELECT count(*) AS n FROM queries WHERE dataset = 'locomo' AND style = 'question'`,
    );
    expect(qa.n).toBe(1986);
    const [plus] = await catalog.query(`SELECT count(*) AS n FROM locomo_plus_items`);
    expect(plus.n).toBe(401);
    const [conv] = await catalog.query(
      `SELECT count(*) AS n FROM conversations WHERE dataset = 'locomo'`,
    );
    expect(conv.n).toBe(10);
  });

  it('says visibly which optional file failed its check, and still loads the rest', async () => {
    const flip = (b: Buffer) => {
      const out = Buffer.from(b);
      out[100] ^= 1;
      return out;
    };
    const steps = await loadBenchmarkData(
      catalog,
      {
        siteBase: SITE,
        allowUpstream: false,
        fetchImpl: siteFetch({ 'data/memuse/instances.test.first3.jsonl': flip }),
      },
      () => undefined,
    );
    expect(steps[0].state).toBe('done');
    expect(steps[0].warnings).toEqual([
      expect.stringMatching(
        /^MemUse not loaded: memuse\/instances\.test\.first3\.jsonl: sha256 mismatch: expected [0-9a-f]{64}, got [0-9a-f]{64}$/,
      ),
    ]);
    const [conv] = await catalog.query(`SELECT count(*) AS n FROM conversations`);
    expect(conv.n).toBeGreaterThan(10);
  });

  it('rejects a results CSV whose bytes differ from the pinned ones, naming it', async () => {
    const name = 'data/results/inmind.csv';
    const good = siteFetch();
    const bytes = new Uint8Array(await (await good(`${SITE}${name}`)).arrayBuffer());
    const pin = { sha256: await sha256Hex(bytes), bytes: bytes.length };
    const tampered = siteFetch({
      [name]: (b) => Buffer.from(b.toString('utf8').replace('92.0', '12.0')),
    });
    await expect(
      loadResults(catalog, [{ name, url: `${SITE}${name}`, pin }], tampered),
    ).rejects.toThrow(/^data\/results\/inmind\.csv: sha256 mismatch/);
    expect(await catalog.count('results')).toBeGreaterThan(300);
  });
});
