// The guided walk through the implicit-association blind spot, for class use. Each step sets
// the view (case, query, retriever); the page shows the live ranks beside the text.
import { BM25_ID } from '../protocol-kit/bm25-retriever.ts';
import { CUSTOM_CASE } from './state.ts';

export interface WalkStep {
  title: string;
  text: string;
  params: Record<string, string | null>;
}

const reset = { mem: null, q: null } as const;

export function walkSteps(denseModel: string): WalkStep[] {
  return [
    {
      title: 'A fact, asked for directly',
      text: 'A user mentioned a tree-nut allergy in an earlier session. Asked "What food allergy did I tell you about?", BM25 puts that memory in its top five among 486 unrelated turns: the words overlap.',
      params: { ...reset, case: null, qv: 'naive', r: BM25_ID },
    },
    {
      title: 'The same fact, needed but never named',
      text: 'Now the user asks for macaron recipes. Macarons are made with almond flour, so the allergy matters, but the question shares no content word with the memory. Watch the rank fall.',
      params: { ...reset, case: null, qv: 'indirect', r: BM25_ID },
    },
    {
      title: 'Does an embedding model bridge the gap?',
      text: 'Dense retrievers compare meaning rather than words. The link from macarons to tree nuts is world knowledge, though, not similarity. Compare the ranks (tiny-bert is a test model with no real semantics; use MiniLM or BGE where this site serves them).',
      params: { ...reset, case: null, qv: 'indirect', r: denseModel },
    },
    {
      title: 'Contrast: a direct question',
      text: 'LoCoMo asks about what was said ("When did Caroline go to the LGBTQ support group?"). Question and evidence share their words, and every retriever puts the memory at or near the top.',
      params: { ...reset, case: 'locomo-direct', qv: null, r: BM25_ID },
    },
    {
      title: 'Your turn',
      text: 'Write a memory and a later request that depends on it without naming it (a pending visa and a trip abroad, a pet and a houseplant). Can you find a pair that every retriever misses?',
      params: { ...reset, case: CUSTOM_CASE, qv: null, r: BM25_ID },
    },
  ];
}
