import { describe, expect, it } from 'vitest';
import { INMIND_PAPER_LINK } from '../../../../src/lib/benchmarks/inmind/paper-link.ts';
import type { PaperRow } from '../../../../src/lib/protocol-kit/paper.ts';

function row(system: string, variant: string, metric: string, paper = 'inmind'): PaperRow {
  return {
    paper,
    table: 'Table 1',
    row: system,
    column: metric,
    value: 1,
    value_text: '1',
    unit: '%',
    system,
    variant,
    metric,
    source_line: 1,
  };
}

describe("InMind's paper link", () => {
  it('sets naive beside naive and target recall beside indirect, both at k = 5 and judged', () => {
    const naive = INMIND_PAPER_LINK.target(row('BM25', 'BM25', 'naive'));
    expect(naive).toMatchObject({ series: 'naive', retriever: 'bm25', k: 5, paperInterval: null });
    expect(naive?.judged).toContain('GPT-5-mini');
    const target = INMIND_PAPER_LINK.target(row('Dense RAG', 'MiniLM', 'target_recall'));
    expect(target).toMatchObject({ series: 'indirect', retriever: 'minilm', k: 5 });
    expect(target?.paperInterval).toContain('§4.5');
  });

  it('keeps an embedding it does not run under its own name', () => {
    const t = INMIND_PAPER_LINK.target(row('Dense RAG', 'text-embedding-3-large', 'naive'));
    expect(t).toMatchObject({ retriever: 'text-embedding-3-large' });
  });

  it("claims no other paper's row, and selects Table 1's Naive RAG group only", () => {
    expect(INMIND_PAPER_LINK.target(row('BM25', 'BM25', 'naive', 'memuse'))).toBeNull();
    expect(INMIND_PAPER_LINK.where).toContain("paper = 'inmind'");
    expect(INMIND_PAPER_LINK.where).toContain("'group: Naive RAG%'");
  });
});
