import { describe, expect, it } from 'vitest';
import { LOCOMO_CONV_PAPER_LINK } from '../../../../src/lib/benchmarks/locomo-conv/paper-link.ts';
import type { PaperRow } from '../../../../src/lib/protocol-kit/paper.ts';

function row(variant: string, paper = 'locomo-conv'): PaperRow {
  return {
    paper,
    table: 'Table 4',
    row: 'Naive RAG',
    column: `Retrieval Recall@10 / ${variant}`,
    value: 0.5,
    value_text: '0.5',
    unit: 'score',
    system: 'Naive RAG',
    variant,
    metric: 'recall@10',
    source_line: 97,
  };
}

describe("LoCoMo-Conv's paper link", () => {
  it('sets each query style beside our series of that name: MiniLM, k = 10, not judged', () => {
    expect(LOCOMO_CONV_PAPER_LINK.target(row('implicit'))).toEqual({
      series: 'implicit',
      retriever: 'minilm',
      retrieverLabel: 'all-MiniLM-L6-v2',
      k: 10,
      judged: null,
      paperInterval: null,
    });
  });

  it("claims no other paper's row", () => {
    expect(LOCOMO_CONV_PAPER_LINK.target(row('dialog', 'inmind'))).toBeNull();
    expect(LOCOMO_CONV_PAPER_LINK.where).toContain("metric = 'recall@10'");
  });
});
