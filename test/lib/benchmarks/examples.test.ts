import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { loadInMind, loadReproduced, loadResults } from '../../../src/lib/loaders/core-loader.ts';
import {
  collectBenchmarkRows,
  loadBenchmarkRows,
} from '../../../src/lib/loaders/benchmark-loader.ts';
import { consoleExamples } from '../../../src/lib/benchmarks/registry.ts';

const EXAMPLE_QUERIES = consoleExamples();
import { SITE, siteFetch } from '../data/site-fetch.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  const opts = { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() };
  await loadInMind(catalog, opts);
  const papers = ['inmind', 'locomo-conv', 'memuse', 'utilmem'];
  const files = papers.map((p) => ({
    name: `data/results/${p}.csv`,
    url: `${SITE}data/results/${p}.csv`,
  }));
  const reproduced = {
    name: 'data/reproduced/memlens.csv',
    url: `${SITE}data/reproduced/memlens.csv`,
  };
  await loadResults(catalog, files, siteFetch());
  await loadReproduced(catalog, [reproduced], siteFetch());
  await loadBenchmarkRows(catalog, await collectBenchmarkRows(opts));
});

afterAll(async () => {
  await catalog.engine.close();
});

const byId = (id: string) => {
  const found = EXAMPLE_QUERIES.find((e) => e.id === id);
  if (!found) throw new Error(`no example ${id}`);
  return found.sql;
};

describe('the console examples, on the loaded tables', () => {
  it('each runs and returns rows', async () => {
    for (const example of EXAMPLE_QUERIES) {
      const rows = await catalog.query(example.sql);
      expect(rows.length, example.id).toBeGreaterThan(0);
    }
    expect(new Set(EXAMPLE_QUERIES.map((e) => e.id)).size).toBe(EXAMPLE_QUERIES.length);
  });

  it('InMind Table 1 puts BM25 and dense retrieval beside each other with their numbers', async () => {
    const rows = await catalog.query(byId('inmind-table1'));
    const minilm = rows.find((r) => String(r.system).startsWith('Dense (MiniLM)'));
    expect(minilm).toMatchObject({ naive: 92, target_recall: 0.8, application: 9.6 });
  });

  it("sets LoCoMo-Conv's Table 4 recall@10 beside ours, each with its comparability", async () => {
    const rows = await catalog.query(byId('paper-vs-ours'));
    const conv = rows.filter((r) => r.benchmark === 'locomo-conv' && r.system === 'minilm');
    expect(conv.map((r) => r.scope).sort()).toEqual([
      'composed',
      'counterfactual',
      'dialog',
      'implicit',
    ]);
    const dialog = conv.find((r) => r.scope === 'dialog');
    expect(dialog).toMatchObject({ k: 10, paper_value: 0.533, paper_source: 'Table 4 line 97' });
    // Only one dialog conversation of the paper's ten is served: another scope, its difference
    // still printed, beside the paper row's name.
    expect(dialog).toMatchObject({ comparability: 'other scope', paper_row: 'Naive RAG' });
    expect(dialog?.difference).toBeCloseTo(Number(dialog?.ours) - 0.533, 3);
    expect(String(dialog?.differs)).toContain("of the paper's 10");
    expect(Object.keys(rows[0]).slice(0, 4)).toEqual([
      'paper_row',
      'paper_value',
      'ours',
      'difference',
    ]);
  });

  it("sets InMind's rows beside our own retriever only: BM25's 53.6 beside the paper's BM25 row", async () => {
    const rows = await catalog.query(byId('paper-vs-ours'));
    const naive = rows.filter((r) => r.benchmark === 'inmind' && r.scope === 'naive');
    expect(naive.map((r) => [r.system, r.paper_value]).sort()).toEqual([
      ['bm25', 53.6],
      ['minilm', 92],
    ]);
    expect(naive.every((r) => r.difference !== null)).toBe(true);
    expect(naive.find((r) => r.system === 'bm25')?.difference).toBe(0);
  });

  it('LoCoMo has 1,986 questions in five categories', async () => {
    const rows = await catalog.query(byId('locomo-categories'));
    expect(rows.map((r) => r.category)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.reduce((n, r) => n + Number(r.questions), 0)).toBe(1986);
  });
});
