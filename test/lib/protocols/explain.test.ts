import { describe, expect, it } from 'vitest';
import { scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import {
  figureSources,
  lineReason,
  paperLines,
  reproduceSummary,
} from '../../../src/lib/protocols/explain.ts';
import {
  comparePaper,
  paperRows,
  type PaperComparison,
} from '../../../src/lib/protocol-kit/paper.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';
import { BENCHMARKS, paperTargetOf } from '../../../src/lib/benchmarks/registry.ts';
import { corpusMap, type Protocol } from '../../../src/lib/protocol-kit/types.ts';

const protocol: Protocol = {
  benchmark: 'inmind',
  notes: [],
  corpora: corpusMap([{ id: 't', docs: ['a', 'b'], docIds: ['b0', 'target'] }]),
  queries: [
    { id: 'q', series: 'indirect', group: 'g', text: 'x', corpusId: 't', goldIds: ['target'] },
  ],
  defaultK: 5,
};
const bm25: Retriever = {
  id: 'bm25',
  label: 'BM25',
  prepare: async () => undefined,
  forCorpus: () => () => Float64Array.from([0, 1]),
};
const rows = paperRows([
  {
    paper: 'inmind',
    table: 'Table 1',
    row: 'BM25',
    column: 'Target Recall',
    value: 3.2,
    value_text: '3.2',
    unit: '%',
    system: 'BM25',
    variant: 'BM25',
    metric: 'target_recall',
    source_line: 127,
  },
]);

describe('Reproduce summary', () => {
  it('says what was recomputed, with what, and sorts paper rows by comparability', () => {
    const comparisons = comparePaper(
      scoreProtocol(protocol, bm25),
      rows,
      5,
      paperTargetOf('inmind'),
    );
    const s = reproduceSummary('inmind', 'bm25', comparisons);
    expect(s.recomputed).toContain('125 tasks');
    expect(s.model).toBe("BM25 (rank_bm25 BM25Okapi), the paper's choice");
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatchObject({
      label: 'BM25 · Target Recall',
      paper: '3.2%',
      comparability: 'proxy',
      sameRetriever: true,
      differs:
        "the paper's Target Recall is GPT-5-mini judging whether the top-5 context states the decisive fact; ours is rank-based recall@5",
    });
    expect(s.lines[0].reason).toMatch(/^A proxy: the paper's Target Recall is GPT-5-mini/);
    expect(s.none).toBeNull();
  });
  it('names the model revision and whose choice it is', () => {
    expect(reproduceSummary('locomo', 'tiny-bert', []).model).toMatch(
      /^tiny-bert \(deterministic test model\), fp32, revision sha256:[0-9a-f]{64}: MemLens's own choice$/,
    );
    expect(reproduceSummary('locomo', 'bge-small', []).model).toContain(
      // Pinned by the sha256 of its fp32 weights since issue 20 (Xenova/bge-small-en-v1.5@ea104dac…).
      'revision sha256:828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
    );
    expect(reproduceSummary('locomo', 'bge-small', []).none).toContain(
      'Figure 4 prints no numbers',
    );
  });

  it('says what is true of a declared table: no paper, so nobody else chose BM25', () => {
    const s = reproduceSummary('user_mine', 'bm25', []);
    expect(s.model).toBe(
      'BM25 (rank_bm25 BM25Okapi), the first run on a declared table, which has no paper to follow',
    );
    expect(s.model).not.toContain("MemLens's own");
    expect(reproduceSummary('user_mine', 'tiny-bert', []).model).toMatch(
      /: picked on this page \(a declared table has no paper to follow\)$/,
    );
    expect(s.none).toBe('Your own benchmark: there is no paper number to compare with.');
  });

  it('gives every chart of every protocol its own source line', () => {
    for (const b of BENCHMARKS) {
      const { similarity, recall } = figureSources(b);
      expect(similarity).not.toBe(recall);
    }
    expect(figureSources('inmind-figure4').similarity).toBe(
      'InMind paper, Figure 4 (InMind panel); protocol: App. 9',
    );
    expect(figureSources('locomo-conv').similarity).toMatch(/^not a paper figure/);
    expect(figureSources('inmind').similarity).toMatch(/^not a paper figure/);
  });
});

describe('The top lines: one per paper number, with a one-sentence reason', () => {
  const base: PaperComparison = {
    paper: {
      ...rows[0],
      row: 'BM25 (Robertson et al., 2009)',
      column: 'Naive',
      value: 53.6,
      value_text: '53.6',
    },
    series: 'naive',
    ours: 53.6,
    oursInterval: null,
    difference: null,
    comparability: 'proxy',
    differs: "the paper's Naive is judged by an LLM; ours is rank-based recall@5",
    paperInterval: null,
    sameRetriever: true,
    sameK: true,
    paperK: 5,
  };

  it('says why an equal number is still a proxy, and drops the row’s citation', () => {
    const [line] = paperLines([base], 'BM25');
    expect([line.label, line.paper, line.ours]).toEqual(['BM25 · Naive', '53.6%', '53.6%']);
    expect(line.reason).toBe(
      "Equal, but still a proxy: the paper's Naive is judged by an LLM; ours is rank-based recall@5.",
    );
    expect(lineReason({ ...base, ours: 50 }, 'BM25')).toMatch(/^A proxy: /);
  });

  it('gives an exact line its difference and another retriever’s row no number, last', () => {
    const exact = {
      ...base,
      comparability: 'exact' as const,
      differs: '',
      ours: 55,
      difference: 1.4,
    };
    const other = {
      ...base,
      paper: { ...base.paper, row: 'Dense (emb3-large) (OpenAI, 2024a)' },
      ours: null,
      comparability: 'other scope' as const,
      sameRetriever: false,
    };
    const lines = paperLines([other, exact], 'BM25');
    expect(lines.map((l) => [l.label, l.ours, l.comparability])).toEqual([
      ['BM25 · Naive', '55.0%', 'exact'],
      ['Dense (emb3-large) · Naive', '—', 'other scope'],
    ]);
    expect(lines[0].reason).toBe('Same metric, pool, retriever and k: ours − paper = +1.4.');
    expect(lines[1].reason).toBe("Another retriever's row: ours (BM25) has no number for it.");
  });
});
