import type { InMindOptions } from '../protocol-kit/inmind.ts';
import type { BenchmarkId } from '../protocol-kit/types.ts';

/** What a paper says a protocol uses, with the sentence it says it in. */
export interface PaperDefault {
  benchmark: BenchmarkId;
  /** Retriever id (`bm25` or a model id) the page and CLI start on. */
  retriever: string;
  /** Every retriever the paper itself ran for this protocol (the default among them). */
  paperRetrievers: readonly string[];
  /** Whether the paper embeds queries with the model's query prefix. */
  queryPrefix: boolean;
  /** InMind only: which memory is the target. */
  target?: InMindOptions['target'];
  /** "InMind paper, Figure 4": where the paper shows this protocol's numbers. */
  source: string;
  /** The paper's (or release's) own words the default follows. */
  sentence: string;
  /** Where the sentence is. */
  cite: string;
}

export const PAPER_DEFAULTS: Readonly<Record<BenchmarkId, PaperDefault>> = Object.freeze({
  inmind: {
    benchmark: 'inmind',
    retriever: 'bm25',
    paperRetrievers: ['bm25', 'minilm'],
    queryPrefix: false,
    target: 'chunk',
    source: 'InMind paper, Table 1 (Naive RAG control, App. 15.3)',
    sentence:
      'Corpus: 486 raw LME-s conversation-turn chunks. Task injection: Concatenate the task ' +
      'user_message and assistant_message as one temporary 487th chunk. Retrievers: Dense MiniLM, ' +
      'dense emb3-large, and BM25. Retrieved context: Top-5 chunks.',
    cite: 'InMind, Appendix 15.3, Table 8',
  },
  'inmind-figure4': {
    benchmark: 'inmind-figure4',
    retriever: 'bge-small',
    paperRetrievers: ['bge-small'],
    queryPrefix: true,
    target: 'user',
    source: 'InMind paper, Figure 4 (InMind panel)',
    sentence:
      'Each candidate supplies a target memory (the user_message) and an indirect query. … ' +
      'it recomputes all four distributions with BGE-small-en-v1.5, using the retrieval prefix ' +
      'recommended by its authors',
    cite: 'InMind, Appendix 9 (i) Similarity filter',
  },
  locomo: {
    benchmark: 'locomo',
    retriever: 'bge-small',
    paperRetrievers: ['bge-small'],
    queryPrefix: true,
    source: 'InMind paper, Figure 4 (LoCoMo panel)',
    sentence:
      'it recomputes all four distributions with BGE-small-en-v1.5, using the retrieval prefix ' +
      'recommended by its authors, and compares the retained tasks with LoCoMo, LoCoMo-Plus, and ' +
      'LME-s turns',
    cite: 'InMind, Appendix 9 (i) Similarity filter',
  },
  'locomo-plus': {
    benchmark: 'locomo-plus',
    retriever: 'bge-small',
    paperRetrievers: ['bge-small'],
    queryPrefix: false,
    source: 'LoCoMo-Plus release, scores.bge (generation_pipeline/rank.py)',
    sentence:
      'scores.bge: sentence-transformers util.cos_sim between BAAI/bge-small-en-v1.5 embeddings ' +
      'of cue_dialogue and trigger_query, with no instruction prefix',
    cite: 'xjtuleeyf/Locomo-Plus generation_pipeline/rank.py',
  },
  'locomo-conv': {
    benchmark: 'locomo-conv',
    retriever: 'minilm',
    paperRetrievers: ['minilm'],
    queryPrefix: false,
    source: 'LoCoMo-Conv paper, Table 4 (Naive RAG, Retrieval Recall@10)',
    sentence:
      'Embeddings for every system: sentence-transformers/all-MiniLM-L6-v2; recall@10 against ' +
      'gold evidence turns',
    cite: 'LoCoMo-Conv README and Table 4',
  },
});

export function paperDefault(benchmark: BenchmarkId): PaperDefault {
  return PAPER_DEFAULTS[benchmark];
}

/** "(paper)" for the paper's own retriever, "(MemLens's own)" for every other choice. */
export function choiceLabel(benchmark: BenchmarkId, retriever: string): string {
  return paperDefault(benchmark).paperRetrievers.includes(retriever) ? 'paper' : "MemLens's own";
}

/** LoCoMo-Plus: the release's pairwise scores, or MemLens's retrieval stitching. */
export const LOCOMO_PLUS_MODES = ['release', 'retrieval'] as const;
export type LocomoPlusMode = (typeof LOCOMO_PLUS_MODES)[number];

/**
 * The query prefix a protocol starts with: the paper's, except LoCoMo-Plus's retrieval mode,
 * which stands in for Figure 4's LoCoMo-Plus panel and so takes App. 9's BGE prefix.
 */
export function defaultQueryPrefix(benchmark: BenchmarkId, mode: LocomoPlusMode): boolean {
  if (benchmark === 'locomo-plus' && mode === 'retrieval') return true;
  return paperDefault(benchmark).queryPrefix;
}
