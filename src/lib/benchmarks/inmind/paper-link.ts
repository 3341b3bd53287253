// The InMind paper's Table 1 Naive RAG rows beside the `inmind` protocol's recall@5.
import type { PaperRow, PaperTarget } from '../../protocol-kit/paper.ts';
import type { PaperLinkDef } from '../benchmark-def.ts';

const JUDGED: Record<string, string> = {
  naive: "the paper's Naive is GPT-5-mini judging the answer given the top-5 context",
  target_recall:
    "the paper's Target Recall is GPT-5-mini judging whether the top-5 context states the decisive fact",
};

/** §4.5 (line 155) prints it for shifts in target recall and application "at these accuracies". */
const INTERVAL = 'paper: ±4–5 pts binomial CI (§4.5)';

function retrieverOf(row: PaperRow): { id: string; label: string } {
  if (row.system === 'BM25') return { id: 'bm25', label: 'BM25' };
  if (row.variant === 'MiniLM') return { id: 'minilm', label: 'all-MiniLM-L6-v2' };
  return { id: row.variant, label: row.variant };
}

function target(row: PaperRow): PaperTarget | null {
  if (row.paper !== 'inmind') return null;
  const retriever = retrieverOf(row);
  return {
    series: row.metric === 'naive' ? 'naive' : 'indirect',
    retriever: retriever.id,
    retrieverLabel: retriever.label,
    k: 5,
    judged: JUDGED[row.metric] ?? `the paper's ${row.column} is judged by an LLM`,
    paperInterval: row.metric === 'target_recall' ? INTERVAL : null,
  };
}

export const INMIND_PAPER_LINK: PaperLinkDef = {
  where: `paper = 'inmind' AND "table" = 'Table 1' AND note LIKE 'group: Naive RAG%'
       AND metric IN ('naive', 'target_recall')`,
  target,
};
