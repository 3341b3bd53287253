import { describe, expect, it } from 'vitest';
import { paperTargetOf } from '../../../src/lib/benchmarks/registry.ts';
import type { PaperComparison, PaperRow } from '../../../src/lib/protocol-kit/paper.ts';
import { browserRunRows, paperVsOurs } from '../../../src/lib/results/paper-vs-ours.ts';
import type { ReproducedRow } from '../../../src/lib/results/reproduced-csv.ts';

const MINILM = 'sentence-transformers/all-MiniLM-L6-v2';

function paperRow(over: Partial<PaperRow>): PaperRow {
  return {
    paper: 'locomo-conv',
    table: 'Table 4',
    row: 'Naive RAG',
    column: 'Retrieval Recall@10 / Dialog',
    value: 0.533,
    value_text: '.533',
    unit: 'score',
    system: 'Naive RAG',
    variant: 'dialog',
    metric: 'recall@10',
    source_line: 97,
    ...over,
  };
}

function ours(over: Partial<ReproducedRow>): ReproducedRow {
  return {
    paper: 'memlens',
    benchmark: 'locomo-conv',
    protocol: 'one index per conversation',
    scope: '',
    table: 'Reproduced: locomo-conv',
    row: 'Dense (all-MiniLM-L6-v2)',
    column: 'recall@10 · dialog',
    value: 61.5,
    unit: '%',
    n: 200,
    note: '',
    system: 'Dense',
    variant: 'dialog',
    metric: 'recall',
    k: 10,
    model: MINILM,
    dtype: 'fp32',
    revision: 'sha256:abc',
    command: 'npm run reproduce -- --benchmark locomo-conv --model minilm',
    ...over,
  };
}

const conv = (rows: PaperRow[]) => [
  { benchmark: 'locomo-conv', rows, targetOf: paperTargetOf('locomo-conv') },
];

describe('paperVsOurs', () => {
  it('sets the paper number beside ours at its k, in its unit, on keys that join', () => {
    const rows = paperVsOurs(conv([paperRow({})]), [ours({ k: 5, value: 50 }), ours({})]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      benchmark: 'locomo-conv',
      system: 'minilm',
      metric: 'recall',
      k: 10,
      scope: 'dialog',
      comparability: 'exact',
      paper_value: 0.533,
      unit: 'score',
      paper_k: 10,
      source_line: 97,
      n: 200,
      differs: '',
    });
    expect(rows[0].ours_value).toBeCloseTo(0.615, 12);
    expect(rows[0].difference).toBeCloseTo(0.082, 12);
    // The paper's row and the values lead; the descriptive columns follow.
    expect(Object.keys(rows[0]).slice(0, 7)).toEqual([
      'paper_row',
      'paper_value',
      'ours_value',
      'difference',
      'unit',
      'comparability',
      'cross_system',
    ]);
    expect([rows[0].paper_row, rows[0].cross_system]).toEqual(['Naive RAG', false]);
  });

  it('says what differs, keeps the difference, and marks another retriever’s row cross-system', () => {
    const scope = "1 conversation (conv-26) of the paper's 10";
    const bm25 = ours({ system: 'BM25', model: 'BM25', row: 'BM25', dtype: '' });
    const rows = paperVsOurs(conv([paperRow({})]), [ours({ scope }), ours({ dtype: 'q8' }), bm25]);
    expect(rows.map((r) => [r.system, r.dtype, r.comparability, r.cross_system])).toEqual([
      ['minilm', 'fp32', 'other scope', false],
      ['minilm', 'q8', 'other scope', false],
    ]);
    expect(rows.every((r) => r.difference !== null && Math.abs(r.difference - 0.082) < 1e-12)).toBe(
      true,
    );
    expect(rows[0].differs).toBe(scope);
    expect(rows[1].differs).toBe('q8 weights, not fp32');
    const [other] = paperVsOurs(conv([paperRow({})]), [bm25]);
    expect([other.system, other.comparability, other.cross_system]).toEqual([
      'bm25',
      'other scope',
      true,
    ]);
    expect(other.difference).toBeCloseTo(0.082, 12);
    expect(other.differs).toBe("paper's retriever all-MiniLM-L6-v2, ours BM25");
  });

  it('labels an LLM-judged paper number a proxy, and keeps ours at every k when none is the paper’s', () => {
    const inmind = paperRow({
      paper: 'inmind',
      table: 'Table 1',
      row: 'BM25',
      column: 'Naive',
      value: 53.6,
      unit: '%',
      system: 'BM25',
      variant: 'naive',
      metric: 'naive',
    });
    const bm25 = { benchmark: 'inmind', system: 'BM25', model: 'BM25', row: 'BM25', dtype: '' };
    const rows = paperVsOurs(
      [{ benchmark: 'inmind', rows: [inmind], targetOf: paperTargetOf('inmind') }],
      [
        ours({ ...bm25, variant: 'naive', k: 1, value: 38.4 }),
        ours({ ...bm25, variant: 'naive', k: 10, value: 70 }),
      ],
    );
    expect(rows.map((r) => [r.k, r.comparability, r.ours_value])).toEqual([
      [1, 'proxy', 38.4],
      [10, 'proxy', 70],
    ]);
    expect(rows[0].differs).toContain('GPT-5-mini');
    expect(rows[0].differs).toContain("paper's k = 5, ours 1");
  });

  it('leaves out a model the registry does not know, and rows of another metric or series', () => {
    const rows = paperVsOurs(conv([paperRow({})]), [
      ours({ model: 'someone/else' }),
      ours({ metric: 'auc', k: null }),
      ours({ variant: 'implicit' }),
    ]);
    expect(rows).toEqual([]);
  });
});

describe('browserRunRows', () => {
  it('keeps the comparisons of the run’s own retriever, in the table’s shape', () => {
    const paper = paperRow({});
    const base: PaperComparison = {
      paper,
      series: 'dialog',
      ours: 0.6,
      oursInterval: { lo: 0.55, hi: 0.65 },
      difference: 0.067,
      comparability: 'exact',
      differs: '',
      paperInterval: null,
      sameRetriever: true,
      sameK: true,
      paperK: 10,
    };
    const rows = browserRunRows([base, { ...base, sameRetriever: false, ours: null }], {
      benchmark: 'locomo-conv',
      retrieverId: 'minilm',
      retrieverLabel: 'Dense (all-MiniLM-L6-v2)',
      k: 10,
      model: MINILM,
      dtype: 'fp32',
      revision: 'sha256:abc',
      queries: new Map([['dialog', 200]]),
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      benchmark: 'locomo-conv',
      system: 'minilm',
      scope: 'dialog',
      k: 10,
      paper_k: 10,
      ours_value: 0.6,
      n: 200,
      command: 'browser',
    });
    // The same columns in the same order, so a saved run reads like the published rows.
    expect(Object.keys(rows[0])).toEqual(Object.keys(paperVsOurs(conv([paper]), [ours({})])[0]));
  });

  it('gives a proxy its difference too, where both numbers exist', () => {
    const paper = paperRow({ value: 53.6, unit: '%' });
    const proxy: PaperComparison = {
      paper,
      series: 'naive',
      ours: 53.6,
      oursInterval: null,
      difference: null,
      comparability: 'proxy',
      differs: "the paper's Naive is judged by an LLM",
      paperInterval: null,
      sameRetriever: true,
      sameK: true,
      paperK: 5,
    };
    const [row] = browserRunRows([proxy], {
      benchmark: 'inmind',
      retrieverId: 'bm25',
      retrieverLabel: 'BM25',
      k: 5,
      model: 'BM25',
      dtype: '',
      revision: '',
      queries: new Map(),
    });
    expect([row.comparability, row.difference, row.cross_system]).toEqual(['proxy', 0, false]);
  });
});
