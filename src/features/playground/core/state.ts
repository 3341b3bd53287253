// The playground's view state as it sits in the URL: `case`, `mem` (memories, one per line),
// `q` (a typed query), `qv` (which of the case's queries), `r` (the retriever in focus),
// `step` (the guided walk), `tiny` (`on`: the teacher added the test model). Anything missing
// falls back to the case's own texts.
import { BM25_ID } from '../../../lib/protocol-kit/bm25-retriever.ts';
import { CURATED_CASES, DEFAULT_CASE, queryOf, type PlaygroundCase } from './cases.ts';
import { TEST_MODEL } from './retrievers.ts';

export const CUSTOM_CASE = 'custom';

export interface PlaygroundState {
  /** A curated case id, or `custom` for typed texts only. */
  caseId: string;
  /** Typed memories; null means the case's own. */
  memories: string[] | null;
  /** Typed query; null means the case's query of `variant`. */
  query: string | null;
  variant: string;
  retriever: string;
  /** 1-based step of the guided walk, or null outside it. */
  step: number | null;
  /** The test model (tiny-bert) is offered and ranks beside the others. */
  testModel: boolean;
}

export function readState(
  params: Record<string, string>,
  retrievers: readonly string[],
  steps: number,
): PlaygroundState {
  const known = [...CURATED_CASES.map((c) => c.id), CUSTOM_CASE];
  const step = Number(params.step);
  const testModel = params.tiny === 'on';
  const offered = retrievers.filter((r) => testModel || r !== TEST_MODEL);
  return {
    caseId: known.includes(params.case ?? '') ? params.case : DEFAULT_CASE,
    memories: params.mem === undefined ? null : splitMemories(params.mem),
    query: params.q ?? null,
    variant: params.qv ?? '',
    retriever: offered.includes(params.r ?? '') ? params.r : BM25_ID,
    step: Number.isInteger(step) && step >= 1 && step <= steps ? step : null,
    testModel,
  };
}

export function splitMemories(text: string): string[] {
  return text
    .split('\n')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

export function joinMemories(memories: readonly string[]): string {
  return memories.join('\n');
}

export interface EffectiveTexts {
  memories: string[];
  query: string;
  edited: boolean;
}

/** The texts to rank: typed ones where present, else the case's. */
export function effectiveTexts(state: PlaygroundState, c: PlaygroundCase | null): EffectiveTexts {
  const memories = state.memories ?? c?.memories ?? [];
  const query = state.query ?? (c ? queryOf(c, state.variant).text : '');
  return { memories, query, edited: state.memories !== null || state.query !== null };
}

/** Picking a case starts from its own texts. */
export function caseParams(caseId: string): Record<string, string | null> {
  return { case: caseId === DEFAULT_CASE ? null : caseId, mem: null, q: null, qv: null };
}
