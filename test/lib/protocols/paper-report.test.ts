import { paperTargetOf } from '../../../src/lib/benchmarks/registry.ts';
import { describe, expect, it } from 'vitest';
import { scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import { comparePaper, paperRows } from '../../../src/lib/protocol-kit/paper.ts';
import { readReproduceParams } from '../../../src/lib/protocols/params.ts';
import {
  formatDifference,
  formatHits,
  formatOurs,
  comparisonLine,
  queryRows,
} from '../../../src/lib/protocol-kit/report.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

const row = (system: string, variant: string, metric: string, value: string) => ({
  paper: 'inmind',
  table: 'Table 1',
  row: `${system} row`,
  column: metric,
  value: Number(value),
  value_text: value,
  unit: '%',
  system,
  variant,
  metric,
  section: '4.2',
  source_line: 127,
});

/** Four InMind-like queries, one gold each; the target ranks 1, 1, 3 and 6 of 6. */
const protocol: Protocol = {
  benchmark: 'inmind',
  notes: [],
  corpora: corpusMap(
    [0, 1].map((t) => ({
      id: `t${t}`,
      docs: ['a', 'b', 'c', 'd', 'e', 'f'],
      docIds: ['b0', 'b1', 'b2', 'b3', 'b4', 'target'],
    })),
  ),
  queries: [
    {
      id: '0:naive',
      series: 'naive',
      group: 'g',
      text: 'top',
      corpusId: 't0',
      goldIds: ['target'],
    },
    {
      id: '1:naive',
      series: 'naive',
      group: 'g',
      text: 'top',
      corpusId: 't1',
      goldIds: ['target'],
    },
    {
      id: '0:indirect',
      series: 'indirect',
      group: 'g',
      text: 'third',
      corpusId: 't0',
      goldIds: ['target'],
    },
    {
      id: '1:indirect',
      series: 'indirect',
      group: 'g',
      text: 'last',
      corpusId: 't1',
      goldIds: ['target'],
    },
  ],
  defaultK: 5,
};

const retriever: Retriever = {
  id: 'bm25',
  label: 'BM25',
  prepare: async () => undefined,
  forCorpus: () => (q) =>
    Float64Array.from(
      q === 'top' ? [0, 0, 0, 0, 0, 1] : q === 'third' ? [3, 2, 0, 0, 0, 1] : [1, 1, 1, 1, 1, 0],
    ),
};

describe('paper comparison', () => {
  const evaluation = scoreProtocol(protocol, retriever);
  const rows = paperRows([
    row('BM25', 'BM25', 'naive', '53.6'),
    row('BM25', 'BM25', 'target_recall', '3.2'),
    row('Dense RAG', 'MiniLM', 'naive', '92.0'),
  ]);

  it('maps naive → naive and target recall → indirect; judged columns are proxies without a difference', () => {
    const at5 = comparePaper(evaluation, rows, 5, paperTargetOf('inmind'));
    expect(
      at5.map((c) => [c.series, c.ours, c.sameRetriever, c.comparability, c.difference]),
    ).toEqual([
      ['naive', 100, true, 'proxy', null],
      ['indirect', 50, true, 'proxy', null],
      ['naive', null, false, 'proxy', null],
    ]);
    expect(at5.map(formatOurs)).toEqual(['100.0', '50.0', '—']);
    expect(at5.map(formatDifference)).toEqual(['—', '—', '—']);
    expect(at5[1].differs).toBe(
      "the paper's Target Recall is GPT-5-mini judging whether the top-5 context states the decisive fact; ours is rank-based recall@5",
    );
    expect(at5[2].differs).toContain("paper's retriever all-MiniLM-L6-v2, ours BM25");
    expect(at5[1].paperInterval).toBe('paper: ±4–5 pts binomial CI (§4.5)');
    expect(comparisonLine(at5[1])).toBe(
      'BM25 row · target_recall: paper 3.2 (paper: ±4–5 pts binomial CI (§4.5)), ours 50.0 [9.5, 90.5] ' +
        "[proxy: the paper's Target Recall is GPT-5-mini judging whether the top-5 context states the decisive fact; ours is rank-based recall@5]",
    );
  });

  it('says when k is not the paper’s 5', () => {
    const at3 = comparePaper(evaluation, rows, 3, paperTargetOf('inmind'));
    expect(at3.map((c) => c.difference)).toEqual([null, null, null]);
    expect(at3[0].differs).toContain("paper's k = 5, ours 3");
  });

  it('sorts the per-query table by target rank', () => {
    expect(queryRows(evaluation, 5).map((r) => [r.query_id, r.target_rank, r.recall_at_k])).toEqual(
      [
        ['0:naive', 1, 1],
        ['1:naive', 1, 1],
        ['0:indirect', 3, 1],
        ['1:indirect', 6, 0],
      ],
    );
    expect(formatHits({ hits: 2, queries: 4, partialCredit: false })).toBe('2/4');
    expect(formatHits({ hits: 1.5, queries: 4, partialCredit: true })).toBe(
      'mean of 4 queries (partial credit)',
    );
  });

  it('says one query in the singular, and groups thousands', () => {
    expect(formatHits({ hits: 0.5, queries: 1, partialCredit: true })).toBe(
      'mean of 1 query (partial credit)',
    );
    expect(formatHits({ hits: 3.5, queries: 1982, partialCredit: true })).toBe(
      'mean of 1,982 queries (partial credit)',
    );
  });
});

describe('Reproduce URL state', () => {
  it('reads every parameter and falls back on unknown values', () => {
    expect(readReproduceParams({})).toMatchObject({
      spec: {
        benchmark: 'inmind',
        inmind: { target: 'chunk', background: 'raw' },
        locomoPlus: 'release',
      },
      retriever: 'bm25',
      k: null,
      queryPrefix: false,
      device: 'auto',
      query: null,
    });
    const v = readReproduceParams({
      bench: 'locomo-conv',
      ret: 'tiny-bert',
      k: '10',
      target: 'user',
      bg: 'content',
      prefix: 'off',
      device: 'wasm',
      q: 'conv-26:q0',
    });
    expect(v).toMatchObject({
      spec: { benchmark: 'locomo-conv', inmind: { target: 'user', background: 'content' } },
      retriever: 'tiny-bert',
      k: 10,
      queryPrefix: false,
      device: 'wasm',
      query: 'conv-26:q0',
    });
    expect(readReproduceParams({ bench: 'inmind-figure4' })).toMatchObject({
      spec: { benchmark: 'inmind-figure4', inmind: { target: 'user' } },
      retriever: 'bge-small',
      queryPrefix: true,
    });
    expect(readReproduceParams({ bench: 'locomo-plus', mode: 'retrieval' })).toMatchObject({
      spec: { locomoPlus: 'retrieval' },
      retriever: 'bge-small',
      queryPrefix: true,
    });
    expect(readReproduceParams({ bench: 'x', ret: 'gpt', k: '51' })).toMatchObject({
      spec: { benchmark: 'inmind' },
      retriever: 'bm25',
      k: null,
    });
  });
});
