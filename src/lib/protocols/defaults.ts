import type { PaperDefault } from '../benchmarks/benchmark-def.ts';
import {
  BENCHMARKS,
  isUserBenchmarkId,
  protocolRun,
  requireProtocolRun,
} from '../benchmarks/registry.ts';
import type { LocomoPlusMode } from '../protocol-kit/locomo-plus.ts';

export type { PaperDefault } from '../benchmarks/benchmark-def.ts';
export { LOCOMO_PLUS_MODES, type LocomoPlusMode } from '../protocol-kit/locomo-plus.ts';

/** Each protocol's paper defaults, from the benchmark registry. */
export const PAPER_DEFAULTS: Readonly<Record<string, PaperDefault>> = Object.freeze(
  Object.fromEntries(
    BENCHMARKS.flatMap((id) => {
      const run = protocolRun(id);
      return run ? [[id, run.defaults]] : [];
    }),
  ),
);

export function paperDefault(benchmark: string): PaperDefault {
  return requireProtocolRun(benchmark).defaults;
}

/** Whose choice a retriever is: the paper's, MemLens's own, or none (a declared table has no paper). */
export type RetrieverChoice = 'paper' | "MemLens's own" | 'no paper';

/** "(paper)" for the paper's own retriever, "(MemLens's own)" for every other choice. */
export function choiceLabel(benchmark: string, retriever: string): RetrieverChoice {
  if (isUserBenchmarkId(benchmark)) return 'no paper';
  return paperDefault(benchmark).paperRetrievers.includes(retriever) ? 'paper' : "MemLens's own";
}

/**
 * The query prefix a protocol starts with: the paper's, except LoCoMo-Plus's retrieval mode,
 * which stands in for Figure 4's LoCoMo-Plus panel and so takes App. 9's BGE prefix.
 */
export function defaultQueryPrefix(
  benchmark: string,
  mode: LocomoPlusMode,
  paper: PaperDefault = paperDefault(benchmark),
): boolean {
  if (benchmark === 'locomo-plus' && mode === 'retrieval') return true;
  return paper.queryPrefix;
}
