// Each paper's bibliographic record, as its stored text (../shared/papers/) gives it: title,
// authors, year, arXiv id. What a text does not give is left out (InMind's text names no authors,
// MemUse's no arXiv id), never filled in. Drives the "line N" links; bibtex.ts the Cite buttons.

import { INMIND_ARXIV } from '../charts/paper-charts.ts';

export interface PaperRef {
  /** The paper's id in the benchmark registry. */
  id: string;
  title: string;
  /** "Family, Given" each; empty when the stored text names none. */
  authors: readonly string[];
  year: number;
  /** The arXiv id (e.g. 2609.03467), null when the stored text gives none. */
  arxiv: string | null;
}

export const PAPER_REFS: Readonly<Record<string, PaperRef>> = {
  inmind: {
    id: 'inmind',
    title: 'Keep It InMind: Benchmarking the Implicit-Association Blind Spot in Agent Memory',
    authors: [],
    year: 2026,
    arxiv: INMIND_ARXIV,
  },
  'locomo-conv': {
    id: 'locomo-conv',
    title:
      "When Users Don't Ask: Benchmarking Context-Driven Memory Retrieval in Conversational Agents",
    authors: ['Chang, Wen-Yu', 'Chen, Yun-Nung'],
    year: 2026,
    arxiv: '2609.03467',
  },
  memuse: {
    id: 'memuse',
    title:
      'MemUse: Moving Memory Evaluation from Direct QA to Natural Integration in Long-Term Human-AI Conversation',
    authors: ['Sumida, Ryuichi', 'Inoue, Koji', 'Kawahara, Tatsuya'],
    year: 2026,
    arxiv: null,
  },
  utilmem: {
    id: 'utilmem',
    title: 'UTILMEM: Benchmarking Evidence Utilization in Long-Term Conversational Memory',
    authors: ['Qing, Peijun', 'Shi, Fobo', 'Vosoughi, Soroush'],
    year: 2026,
    arxiv: '2608.30508',
  },
};

export function paperRef(paper: string): PaperRef | null {
  return Object.hasOwn(PAPER_REFS, paper) ? PAPER_REFS[paper] : null;
}

/** The paper's arXiv page, or null without an arXiv id. */
export function arxivUrl(paper: string): string | null {
  const ref = paperRef(paper);
  return ref?.arxiv ? `https://arxiv.org/abs/${ref.arxiv}` : null;
}
