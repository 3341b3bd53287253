// The LoCoMo-Conv paper's Table 4 Naive RAG recall@10 beside the protocol's, one per query style.
import type { PaperRow, PaperTarget } from '../../protocol-kit/paper.ts';
import type { PaperLinkDef } from '../benchmark-def.ts';

function target(row: PaperRow): PaperTarget | null {
  if (row.paper !== 'locomo-conv') return null;
  return {
    series: row.variant,
    retriever: 'minilm',
    retrieverLabel: 'all-MiniLM-L6-v2',
    k: 10,
    judged: null,
    paperInterval: null,
  };
}

export const LOCOMO_CONV_PAPER_LINK: PaperLinkDef = {
  where: `paper = 'locomo-conv' AND "table" = 'Table 4' AND "row" = 'Naive RAG' AND metric = 'recall@10'`,
  target,
};
